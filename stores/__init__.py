"""Data and I/O: templates, the target registry, embeddings, indexes, settings, sessions.

Nothing in here imports from the layers above it (tools, nodes, graph); a test walks the
imports to keep it so. Each domain fact has one home in ``data/`` behind ``targets``.
"""
