"""The browser front door: the page under ``/ui/`` and the REST API under ``/api/v1/``.

``oic_ai.web.app:app`` is the Starlette app that ``langgraph.json``'s ``http.app`` (and
``oic-ai serve``) mounts beside the standard LangGraph routes; ``oic_ai.web.api`` holds
its REST routes; ``static/`` holds the page's files.
"""
