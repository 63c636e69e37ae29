"""One module per graph node: ``(state: State, runtime: Runtime[Context]) -> partial state``.

The state and context schemas live here too (``state``, ``context``), with the helpers
every node shares (``messages``), so nodes never import the graph nor each other.
"""
