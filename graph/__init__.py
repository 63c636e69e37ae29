"""The LangGraph state graph, its state and context schemas, and the Python API.

Built in a later step (issue 5); this package exists so the layout matches the design.
"""
