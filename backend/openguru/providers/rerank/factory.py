"""The reranker is optional: `None` when RERANK_API_URL is unset."""

from functools import lru_cache

from django.conf import settings

from openguru.providers.rerank.base import Reranker


@lru_cache(maxsize=1)
def get_reranker() -> Reranker | None:
    if not settings.RERANK_API_URL:
        return None
    from openguru.providers.rerank.tei import TEIReranker

    return TEIReranker(url=settings.RERANK_API_URL, api_key=settings.RERANK_API_KEY or None)
