"""Reranking by a HuggingFace text-embeddings-inference (TEI) style server (RERANK_API_URL)."""

import math
from collections.abc import Sequence
from typing import Any

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.embeddings.tei import TEIHttpClient, base_url
from openguru.providers.rerank.base import RerankResult


class TEIReranker:
    def __init__(
        self,
        *,
        url: str,
        api_key: str | None = None,
        batch_size: int = 32,
        timeout: float = 30.0,
    ) -> None:
        self._client = TEIHttpClient(
            url=base_url(url, "rerank"), api_key=api_key, timeout=timeout, service="rerank server"
        )
        # TEI refuses more texts per request than its max_client_batch_size (32 by default).
        # Each score depends only on its own (query, text) pair, so batches can be merged.
        self._batch_size = batch_size

    def rerank(self, query: str, texts: Sequence[str]) -> list[RerankResult]:
        scores: dict[int, float] = {}
        for start in range(0, len(texts), self._batch_size):
            batch = texts[start : start + self._batch_size]
            for index, score in self._score_batch(query, batch).items():
                scores[start + index] = score
        if _has_raw_logits(scores.values()):
            scores = {index: _sigmoid(score) for index, score in scores.items()}
        results = [
            RerankResult(index=index, score=min(1.0, max(0.0, score)))
            for index, score in scores.items()
        ]
        # Ties keep the retrieval order, so equal scores never shuffle between runs.
        return sorted(results, key=lambda result: (-result.score, result.index))

    def _score_batch(self, query: str, texts: Sequence[str]) -> dict[int, float]:
        body = self._client.post_json(
            "/rerank", {"query": query, "texts": list(texts), "raw_scores": False}
        )
        return _parse_scores(body, count=len(texts))


def _parse_scores(body: Any, *, count: int) -> dict[int, float]:
    """{index: score} with every index in range(count) exactly once."""
    try:
        scores = {int(item["index"]): float(item["score"]) for item in body}
    except (TypeError, KeyError, ValueError) as exc:
        raise DomainError(
            ErrorCode.PROVIDER_ERROR, "The rerank server returned a malformed answer."
        ) from exc
    if sorted(scores) != list(range(count)) or len(body) != count:
        raise DomainError(
            ErrorCode.PROVIDER_ERROR, "The rerank server did not score every text exactly once."
        )
    if not all(math.isfinite(score) for score in scores.values()):
        raise DomainError(
            ErrorCode.PROVIDER_ERROR, "The rerank server returned a non-finite score."
        )
    return scores


def _has_raw_logits(scores: Any) -> bool:
    # Some TEI-compatible servers ignore raw_scores=false and send cross-encoder logits.
    # Judged on the whole result, so one ranking is never half squashed, half not.
    return any(score < 0.0 or score > 1.0 for score in scores)


def _sigmoid(logit: float) -> float:
    # Split by sign so exp() never overflows on a large logit.
    if logit >= 0:
        return 1.0 / (1.0 + math.exp(-logit))
    exp = math.exp(logit)
    return exp / (1.0 + exp)
