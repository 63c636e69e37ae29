"""The ``search_templates`` tool: rank the template library for a request.

One :class:`~oic_ai.tools.retrieval.hybrid_search.TemplateSearch` is kept per library, index and
embedding model for the life of the process (the ``retrieve`` node and the tool share it);
it is opened and indexed on first use and refreshed on each.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from langchain_core.tools import tool

from oic_ai.stores.settings import Settings, load_settings

if TYPE_CHECKING:
    from oic_ai.tools.retrieval.hybrid_search import TemplateSearch

_SEARCHES: dict[tuple[Any, ...], TemplateSearch] = {}
_LOCK = threading.Lock()


def open_search(settings: Settings) -> TemplateSearch:
    """The process-wide :class:`TemplateSearch` for these settings, indexed on demand."""
    key = (
        str(settings.data_dir.resolve()),
        str(settings.templates_dir) if settings.templates_dir else None,
        settings.chroma_url,
        settings.embedding_provider,
        settings.ollama_embedding_model,
        settings.openai_embedding_model,
    )
    with _LOCK:
        search = _SEARCHES.get(key)
        if search is None:
            from oic_ai.tools.retrieval.hybrid_search import TemplateSearch

            search = TemplateSearch.open(settings)
            _SEARCHES[key] = search
        search.refresh()
        return search


def find_templates(
    query: str,
    top_k: int = 3,
    *,
    filters: dict[str, str] | None = None,
    settings: Settings | None = None,
) -> list[dict[str, Any]]:
    """Rank the library's templates for ``query``, best first.

    Args:
        query: What the image should be, in words.
        top_k: How many templates to return.
        filters: Narrow by ``os``, ``dist``, ``arch`` or ``image_type``.
        settings: Resolved settings; ``load_settings()`` when omitted.

    Returns:
        One ``search --json`` result entry per template: name, path, score breakdown and
        target.
    """
    search = open_search(settings or load_settings())
    response = search.search(query, top_k=top_k, filters=filters)
    return [result.to_json() for result in response.results]


@tool
def search_templates(query: str, top_k: int = 3) -> list[dict[str, Any]]:
    """Find the OS image templates in the library that best match a request.

    Args:
        query: What the image should be, e.g. "ubuntu 24.04 edge image for arm64 with docker".
        top_k: How many templates to return.

    Returns:
        The best templates first, each with its file name, path, hybrid score breakdown
        (semantic, keyword, package) and target (os, dist, arch, image_type).
    """
    return find_templates(query, top_k)
