"""Data layer: template parsing, template library, and (later) indexes and sessions.

Nothing in here imports from the layers above it (tools, nodes, graph).
"""
