"""The Streamlit app: `pages/` (one per tab), `widgets/` (pieces pages share) and
`state/` (what a page keeps between reruns and the calls into the pipeline)."""
