"""Read back what the indexer stored for a source, through the vector store (so either layout:
a collection of the guru's own or its rows in a shared one)."""

import sys

from openguru.providers.vectorstore.base import SearchHit
from openguru.providers.vectorstore.factory import get_vector_store


def source_chunks(*, collection: str, source_id: int) -> list[SearchHit]:
    """Every chunk of the source, ordered by chunk id (a stable, content-blind order)."""
    hits = get_vector_store().source_chunks(collection, source_id=source_id, limit=sys.maxsize)
    return sorted(hits, key=lambda hit: hit.id)


def evenly_spaced(items: list[str], count: int) -> list[str]:
    """`count` items spread over the whole list (all of them when it is shorter)."""
    if count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]
