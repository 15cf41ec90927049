"""The app's tabs, one module per thing a person can do."""
