"""Refusal behaviour of the trust gate across a threshold sweep.

A question is refused at a threshold when the gate keeps no context for it, exactly as the
answer engine decides to answer "I don't know" without calling an LLM. Asking in-scope and
out-of-scope questions over the same sweep gives the trade-off between refusing what the guru
cannot answer and wrongly refusing what it can.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from openguru.answers.fusion import Candidate
from openguru.answers.gate import answer_gate
from openguru.answers.retrieval import Mode
from openguru.core.models import PlatformSettings

THRESHOLD_STEPS = 20  # 0.0, 0.05, ..., 1.0
THRESHOLDS = tuple(round(step / THRESHOLD_STEPS, 2) for step in range(THRESHOLD_STEPS + 1))
REFUSAL_MODE: Mode = "hybrid"

# One bool per threshold of THRESHOLDS: True where the gate kept nothing.
Refusals = tuple[bool, ...]


@dataclass(frozen=True)
class GateSettings:
    threshold: float  # what an answer is gated at (the refusal sweep tries every THRESHOLDS)
    margin: float
    candidates: int  # how many retrieved candidates the gate sees, as in the answer engine


def default_gate_settings() -> GateSettings:
    # The model's defaults, not the live row: an admin's tuning must not move the benchmark.
    defaults = PlatformSettings()
    return GateSettings(
        threshold=defaults.trust_score_threshold,
        margin=defaults.trust_score_margin,
        candidates=settings.RETRIEVAL_CANDIDATES,
    )


def refusals(candidates: Sequence[Candidate], gate: GateSettings) -> Refusals:
    seen = candidates[: gate.candidates]
    return tuple(
        not answer_gate(seen, threshold=threshold, margin=gate.margin).passed
        for threshold in THRESHOLDS
    )


@dataclass(frozen=True)
class RefusalPair:
    corpus: str
    out_of_scope: str
    in_scope: Sequence[Refusals]
    outside: Sequence[Refusals]

    def records(self) -> list[dict[str, str | float]]:
        return [
            {
                "corpus": self.corpus,
                "out_of_scope": self.out_of_scope,
                "refused_out_of_scope": refusal_rate(self.outside, index),
                "refused_in_scope": refusal_rate(self.in_scope, index),
                "threshold": threshold,
            }
            for index, threshold in enumerate(THRESHOLDS)
        ]


def refusal_rate(flags: Sequence[Refusals], threshold_index: int) -> float:
    if not flags:
        return 0.0
    return round(sum(f[threshold_index] for f in flags) / len(flags), 4)
