"""Text embedding models that run offline inside the process."""
