"""The decision trace of one answer: what it decided and why, what each ranking found, how the
gate cut, which LLM calls it made (tokens, latency) and where its time went. Stored with the
question (`Question.trace`) or the refusal (`OutOfContextQuestion.trace`), read back through the
admin API, and summarized by `make eval --engine-answers`."""

import time
from typing import Any

from openguru.answers.engine.fusion import Candidate
from openguru.answers.engine.gate import GateDecision
from openguru.answers.engine.retrieval import RetrievalResult

TRACE_TOP = 10  # candidates kept per list: enough to see why a chunk won, small enough to store

ANSWERED = "answered"
REFUSED = "refused"
# Reasons. A refusal's is also kept as `refused_because`, which the analytics read.
PASSED_GATE = "passed_gate"
LOW_RELEVANCE = "low_relevance"
NOT_VALID = "not_valid"  # question understanding judged it off-topic


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


def _ids_and_scores(pairs: list[tuple[str, float]]) -> list[list[Any]]:
    return [[chunk_id, round(score, 5)] for chunk_id, score in pairs[:TRACE_TOP]]


def ranked_lists(retrieval: RetrievalResult) -> dict[str, list[list[Any]]]:
    """Candidate ids and scores per list: each store ranking (dense<i>, bm25<i>), the fusion,
    and the reranker's (or the LLM relevance call's) order when there was one."""
    lists = {label: _ids_and_scores(pairs) for label, pairs in retrieval.rankings.items()}
    fused = sorted(retrieval.candidates, key=lambda c: c.fused, reverse=True)
    lists["fused"] = _ids_and_scores([(c.hit.id, c.fused) for c in fused])
    reranked = [c for c in retrieval.candidates if c.rerank is not None]
    if reranked:
        reranked.sort(key=lambda c: c.rerank or 0.0, reverse=True)
        lists["reranked"] = _ids_and_scores([(c.hit.id, c.rerank or 0.0) for c in reranked])
    return lists


class DecisionTrace:
    """Filled stage by stage; `as_dict` is what is stored."""

    def __init__(self, *, fast: bool, llm: bool) -> None:
        self.data: dict[str, Any] = {"mode": "fast" if fast else "default", "llm": llm}
        self.llm_calls: list[dict[str, Any]] = []
        self.sequential_llm_calls = 0  # round trips before the first token
        self.understanding_ready = False  # had understanding arrived when the gate ran
        self._retrieval: RetrievalResult | None = None

    def retrieved(self, retrieval: RetrievalResult) -> None:
        self.data |= {
            "retrieval_mode": retrieval.mode,
            "queries": retrieval.queries,  # query variant i is ranked as dense<i> and bm25<i>
            "fusion": retrieval.fusion,
            "list_weights": retrieval.list_weights,  # rrf: what each ranking counted
            "candidates": len(retrieval.candidates),
        }
        self.data["timings_ms"] = {k: round(v, 1) for k, v in retrieval.timings_ms.items()}
        self._retrieval = retrieval  # its lists are read at the end, once relevance is scored

    def gated(self, decision: GateDecision, *, setting: float, margin: float) -> None:
        self.data |= {
            "threshold": round(decision.threshold, 4),  # the cut applied
            "gate": {"setting": setting, "margin": margin},  # cut = max(setting, best - margin)
            "best": round(decision.best, 4),
            "kept": [_row(c) for c in decision.kept],
            "dropped": [_row(c) for c in decision.dropped[:20]],
        }

    def llm_call(
        self,
        name: str,
        *,
        model: str,
        prompt_tokens: int,
        completion_tokens: int,
        ms: float | None,
        sequential: bool,
    ) -> None:
        """`sequential`: the answer waited for it (a round trip before the first token)."""
        self.llm_calls.append(
            {
                "name": name,
                "model": model,
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "ms": None if ms is None else round(ms, 1),
                "sequential": sequential,
            }
        )
        self.sequential_llm_calls += sequential

    def decide(self, decision: str, reason: str) -> None:
        self.data |= {"decision": decision, "reason": reason}
        if decision == REFUSED:
            self.data["refused_because"] = reason

    def as_dict(self, clock: "Clock") -> dict[str, Any]:
        timings = self.data.get("timings_ms", {}) | {
            name: round(ms, 1) for name, ms in clock.laps.items()
        }
        return self.data | {
            "lists": ranked_lists(self._retrieval) if self._retrieval else {},
            "timings_ms": timings,
            "understanding_ready": self.understanding_ready,
            "sequential_llm_calls": self.sequential_llm_calls,
            "llm_calls": self.llm_calls,
            "tokens": {
                "prompt": sum(c["prompt_tokens"] for c in self.llm_calls),
                "completion": sum(c["completion_tokens"] for c in self.llm_calls),
            },
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

    def since_start_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000
