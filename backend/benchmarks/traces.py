"""What the server recorded about the answers it streamed (read from the bench database)."""

from collections import Counter
from collections.abc import Iterable
from typing import Any

from openguru.answers.models import Question
from openguru.gurus.models import Guru

from benchmarks.stats import percentile, rounded


def saved_questions(guru: Guru, slugs: Iterable[str | None]) -> list[Question]:
    wanted = {slug for slug in slugs if slug}
    return list(Question.objects.filter(guru=guru, binge=None, slug__in=wanted))


def trace_summary(questions: list[Question]) -> dict[str, Any]:
    """Round trips before the first token (most common value and all values seen), how often
    question understanding had arrived before the gate, and server-side medians of the search
    and of the whole answer."""
    calls = Counter(q.trace.get("sequential_llm_calls") for q in questions)
    timings = [q.trace.get("timings_ms", {}) for q in questions]
    return {
        "sequential_llm_calls": calls.most_common(1)[0][0] if calls else None,
        "sequential_llm_calls_seen": {str(k): v for k, v in sorted(calls.items(), key=str)},
        "understanding_ready_share": _share(q.trace.get("understanding_ready") for q in questions),
        "server_search_ms_p50": _median(t.get("search_ms") for t in timings),
        "server_stage_ms_p50": {
            stage: _median(t.get(stage) for t in timings) for stage in _stages(timings)
        },
        "server_answer_ms_p50": _median(q.latency_ms for q in questions),
    }


def _stages(timings: list[dict[str, float]]) -> list[str]:
    """Every stage any answer recorded, in the order the first answers recorded them."""
    return list(dict.fromkeys(stage for t in timings for stage in t))


def _median(values: Iterable[float | None]) -> float | None:
    return rounded(percentile([float(v) for v in values if v is not None], 50))


def _share(flags: Iterable[object]) -> float | None:
    known = [bool(flag) for flag in flags if flag is not None]
    return round(sum(known) / len(known), 3) if known else None
