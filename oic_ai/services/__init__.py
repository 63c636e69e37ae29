"""The services every front door calls: the library, the package indexes and sessions.

They sit above the graph (they run ``TemplateAgent`` turns and read checkpoints) and
below the front doors (``oic_ai.cli``, ``oic_ai.web``); the graph never imports them.
``remote`` is the same sessions and turns over an oic-ai server's HTTP API.

The command line, the web app and the REST API call these plain, typed functions and
render what they return; none of them parses arguments or prints. Each module imports
its heavy dependencies (Chroma, LangGraph, SQLite package code) inside the functions
that need them, so ``oic-ai sessions list`` or ``oic-ai validate`` start fast. This
package imports nothing itself.
"""
