"""oic-ai: the command line, a thin front door over the Python API."""

__version__ = "0.1.0"
