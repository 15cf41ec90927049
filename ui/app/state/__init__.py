"""What the app keeps between reruns, and its calls into the pipeline."""
