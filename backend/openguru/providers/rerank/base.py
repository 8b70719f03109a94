"""The reranker interface (optional provider)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class RerankResult:
    index: int  # position in the `texts` given
    score: float  # relevance in [0, 1]


@runtime_checkable
class Reranker(Protocol):
    def rerank(self, query: str, texts: Sequence[str]) -> list[RerankResult]:
        """Scores for every text, best first."""
        ...
