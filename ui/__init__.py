"""User interfaces: the `sudokucam` command line and the Streamlit app."""
