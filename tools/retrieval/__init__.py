"""Retrieval logic over the stores: query types, the one target detector, hybrid scoring, eval.

- :mod:`.query_classifier`: the query type of a request and the targets it names (words
  and, for the planner, their spans in the text);
- :mod:`.hybrid_search`: semantic + BM25 + package scores with per-query-type weights;
- :mod:`.evaluation`: hit@k and MRR over a labelled queries file.
"""
