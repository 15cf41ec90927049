"""Training the digit classifier (needs torch): not installed with the package."""
