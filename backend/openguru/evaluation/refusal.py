"""Refusal behaviour of the trust gate across a threshold sweep.

A question is refused at a threshold when the gate keeps no context for it, exactly as the
answer engine decides to answer "I don't know" without calling an LLM. Asking in-scope and
out-of-scope questions over the same sweep gives the trade-off between refusing what the guru
cannot answer and wrongly refusing what it can.

Each pair is also summarised by how well the gate's score (`answers.engine.gate.gate_score`)
separates
the two sets whatever the threshold: the AUC (the chance an in-scope question scores above an
out-of-scope one), the share of out-of-scope questions refused at the highest threshold that
refuses at most IN_SCOPE_BUDGET of the in-scope ones, and the rates at the guru's calibrated
threshold (`answers.quality.calibration`) and at the deployment default.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from django.conf import settings

from openguru.answers.engine.fusion import Candidate
from openguru.answers.engine.gate import answer_gate, gate_score
from openguru.answers.engine.retrieval import Mode
from openguru.core.models import PlatformSettings

THRESHOLD_STEPS = 20  # 0.0, 0.05, ..., 1.0
THRESHOLDS = tuple(round(step / THRESHOLD_STEPS, 2) for step in range(THRESHOLD_STEPS + 1))
REFUSAL_MODE: Mode = "hybrid"

IN_SCOPE_BUDGET = 0.10  # in-scope questions a gate may refuse, for the summary's operating point


@dataclass(frozen=True)
class Refusals:
    score: float  # the gate's score: refused at any threshold above it
    refused: tuple[bool, ...]  # one per threshold of THRESHOLDS: True where the gate kept nothing


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
    return Refusals(
        score=gate_score(seen),
        refused=tuple(
            not answer_gate(seen, threshold=threshold, margin=gate.margin).passed
            for threshold in THRESHOLDS
        ),
    )


@dataclass(frozen=True)
class RefusalPair:
    corpus: str
    out_of_scope: str
    in_scope: Sequence[Refusals]
    outside: Sequence[Refusals]
    calibrated: float | None = None  # the guru's calibrated threshold, when it has one

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

    def summary(self, *, default: float) -> dict[str, str | float | None]:
        inside = [r.score for r in self.in_scope]
        outside = [r.score for r in self.outside]
        budget = budget_threshold(inside, budget=IN_SCOPE_BUDGET)
        record: dict[str, str | float | None] = {
            "corpus": self.corpus,
            "out_of_scope": self.out_of_scope,
            "auc": round(separation_auc(inside, outside), 4),
            "budget_threshold": round(budget, 4),
            "refused_out_of_scope_at_budget": share_below(outside, budget),
            "refused_in_scope_at_budget": share_below(inside, budget),
            "default_threshold": default,
            "refused_out_of_scope_default": share_below(outside, default),
            "refused_in_scope_default": share_below(inside, default),
            "calibrated_threshold": self.calibrated,
        }
        if self.calibrated is not None:
            record["refused_out_of_scope_calibrated"] = share_below(outside, self.calibrated)
            record["refused_in_scope_calibrated"] = share_below(inside, self.calibrated)
        return record


def refusal_rate(flags: Sequence[Refusals], threshold_index: int) -> float:
    if not flags:
        return 0.0
    return round(sum(f.refused[threshold_index] for f in flags) / len(flags), 4)


def share_below(scores: Sequence[float], threshold: float) -> float:
    """The share refused at `threshold` (the gate refuses a score below it)."""
    if not scores:
        return 0.0
    return round(sum(score < threshold for score in scores) / len(scores), 4)


def separation_auc(inside: Sequence[float], outside: Sequence[float]) -> float:
    """P(an in-scope score > an out-of-scope one), ties counting half (Mann-Whitney)."""
    if not inside or not outside:
        return 0.0
    ours, theirs = np.asarray(inside)[:, None], np.asarray(outside)[None, :]
    wins = float((ours > theirs).sum()) + 0.5 * float((ours == theirs).sum())
    return wins / (len(inside) * len(outside))


def budget_threshold(inside: Sequence[float], *, budget: float) -> float:
    """The highest threshold that refuses at most `budget` of the in-scope scores."""
    if not inside:
        return 0.0
    ranked = sorted(inside)
    allowed = math.floor(budget * len(ranked) + 1e-9)  # questions it may refuse
    return ranked[allowed] if allowed < len(ranked) else ranked[-1] + 1e-9
