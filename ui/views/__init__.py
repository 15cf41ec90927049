"""The pages of the Streamlit app, one module per thing a person can do."""
