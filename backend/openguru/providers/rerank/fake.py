"""A deterministic reranker with no model: the share of the query's words a text contains."""

from collections.abc import Sequence

from openguru.providers.embeddings.fake import content_words
from openguru.providers.rerank.base import RerankResult


class FakeReranker:
    def rerank(self, query: str, texts: Sequence[str]) -> list[RerankResult]:
        query_words = set(content_words(query))
        results = [
            RerankResult(index=index, score=_overlap(query_words, text))
            for index, text in enumerate(texts)
        ]
        # Ties keep the retrieval order, so equal scores never shuffle between runs.
        return sorted(results, key=lambda result: (-result.score, result.index))


def _overlap(query_words: set[str], text: str) -> float:
    if not query_words:
        return 0.0
    return len(query_words & set(content_words(text))) / len(query_words)
