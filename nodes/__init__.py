"""One module per graph node: ``(state, runtime) -> partial state``.

Built in a later step (issue 5); this package exists so the layout matches the design.
"""
