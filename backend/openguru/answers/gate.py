"""The trust gate: keep contexts whose relevance is high enough, or refuse without an LLM call.

threshold = max(setting, best - margin): an absolute floor, plus a cut relative to the best hit so
a strong match does not drag weak neighbours in. trust score = mean relevance of what was kept.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from openguru.answers.fusion import Candidate


@dataclass(frozen=True)
class GateDecision:
    kept: list[Candidate]
    dropped: list[Candidate]
    threshold: float
    best: float
    trust_score: float

    @property
    def passed(self) -> bool:
        return bool(self.kept)


def trust_gate(
    candidates: Sequence[Candidate], *, threshold: float, margin: float, max_keep: int
) -> GateDecision:
    best = max((c.relevance for c in candidates), default=0.0)
    cut = max(threshold, best - margin)
    ranked = sorted(candidates, key=lambda c: c.relevance, reverse=True)
    kept = [c for c in ranked if c.relevance >= cut][:max_keep]
    kept_ids = {c.hit.id for c in kept}
    dropped = [c for c in ranked if c.hit.id not in kept_ids]
    trust = sum(c.relevance for c in kept) / len(kept) if kept else 0.0
    return GateDecision(kept=kept, dropped=dropped, threshold=cut, best=best, trust_score=trust)


def answer_gate(
    candidates: Sequence[Candidate], *, threshold: float, margin: float
) -> GateDecision:
    """The gate as the answer engine applies it: up to as many contexts as an answer uses."""
    return trust_gate(
        candidates,
        threshold=threshold,
        margin=margin,
        max_keep=settings.RETRIEVAL_TOP_TEXT + settings.RETRIEVAL_TOP_CODE,
    )
