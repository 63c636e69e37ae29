"""One module per command group; :mod:`oic_ai.cli.main` imports only the one that runs."""
