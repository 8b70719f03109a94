"""What retrieval saw and why it kept what it kept, stored with the question for debugging."""

import time
from typing import Any

from openguru.answers.fusion import Candidate
from openguru.answers.gate import GateDecision
from openguru.answers.retrieval import RetrievalResult


def _row(candidate: Candidate) -> dict[str, Any]:
    return {
        "id": candidate.hit.id,
        "source_id": candidate.hit.source_id,
        "link": candidate.hit.metadata.get("link", ""),
        "title": candidate.hit.metadata.get("title", ""),
        "fused": round(candidate.fused, 5),
        "dense": None if candidate.dense is None else round(candidate.dense, 4),
        "rerank": None if candidate.rerank is None else round(candidate.rerank, 4),
        "relevance": round(candidate.relevance, 4),
        "found_by": candidate.found_by,
    }


def trace_for(
    retrieval: RetrievalResult, decision: GateDecision, *, fast: bool, llm: bool
) -> dict[str, Any]:
    return {
        "mode": "fast" if fast else "default",
        "retrieval_mode": retrieval.mode,
        "llm": llm,
        "timings_ms": {k: round(v, 1) for k, v in retrieval.timings_ms.items()},
        "queries": retrieval.queries,  # query variant i is ranked as dense<i> and bm25<i>
        "list_weights": retrieval.list_weights,
        "threshold": round(decision.threshold, 4),
        "best": round(decision.best, 4),
        "kept": [_row(c) for c in decision.kept],
        "dropped": [_row(c) for c in decision.dropped[:20]],
    }


class Clock:
    """Named laps in milliseconds, for the trace: where an answer's time went."""

    def __init__(self, started: float | None = None) -> None:
        self.started = time.perf_counter() if started is None else started
        self._last = self.started
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = (now - self._last) * 1000
        self._last = now

    def mark(self, name: str) -> None:
        """Time since the clock started (e.g. when the first token left)."""
        self.laps[name] = (time.perf_counter() - self.started) * 1000
