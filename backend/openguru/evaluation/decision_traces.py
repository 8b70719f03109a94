"""What the answer engine decided over an `--engine-answers` run, from the decision traces it
stored with each answer and refusal: decisions by reason, and LLM calls and tokens per question.
"""

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from openguru.answers.models import OutOfContextQuestion, Question
from openguru.gurus.models import Guru


def stored_traces(*, guru: Guru) -> list[dict[str, Any]]:
    """The traces of the guru's answers and refusals (a run empties both first)."""
    answered = Question.objects.filter(guru=guru).values_list("trace", flat=True)
    refused = OutOfContextQuestion.objects.filter(guru=guru).values_list("trace", flat=True)
    return [*answered, *refused]


def decision_summary(traces: Sequence[dict[str, Any]], *, reused: int) -> dict[str, Any]:
    """`reused`: answers replayed from an earlier one, which store no trace of their own."""
    reasons = Counter(f"{t.get('decision', '?')}/{t.get('reason', '?')}" for t in traces)
    if reused:
        reasons["reused"] = reused
    calls = [t.get("llm_calls", []) for t in traces]
    return {
        "decisions": dict(sorted(reasons.items())),
        "llm_calls_mean": _mean([len(c) for c in calls]),
        "sequential_llm_calls_mean": _mean([t.get("sequential_llm_calls", 0) for t in traces]),
        "prompt_tokens_mean": _mean([sum(x["prompt_tokens"] for x in c) for c in calls]),
        "completion_tokens_mean": _mean([sum(x["completion_tokens"] for x in c) for c in calls]),
    }


def _mean(values: Sequence[float]) -> float:
    return round(statistics.fmean(values), 2) if values else 0.0
