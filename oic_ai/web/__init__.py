"""The web front door: the REST API, the page and per-user access for ``oic-ai serve``."""
