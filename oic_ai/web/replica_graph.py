"""The served graph as Aegra loads it: by file path (``aegra.json``'s ``graphs``).

Aegra imports a graph's file under a name of its own, so this file only re-exports the
factory of ``graph/served.py``; its module (and the set of sessions running here) stays one.
"""

from oic_ai.graph.served import graph

__all__ = ["graph"]
