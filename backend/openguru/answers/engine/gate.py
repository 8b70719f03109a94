"""The trust gate: keep contexts whose relevance is high enough, or refuse without an LLM call.

threshold = max(setting, best - margin): an absolute floor, plus a cut relative to the best hit so
a strong match does not drag weak neighbours in. trust score = mean relevance of what was kept.

A question is refused when its `gate_score`, the best candidate's relevance, is below the
threshold. The threshold is the one a maintainer set on the guru; else the guru's own, calibrated
from its corpus (`answers.quality.calibration`), when it has one and relevance comes from retrieval
(cosine or the reranker); otherwise the deployment's `trust_score_threshold`. `make eval`
measured other scores against this one (the share of the question's rare words in the top
contexts, the cosine to the guru's centroid, the mean of the top three, a penalty for words the
corpus never uses): none separated out-of-scope questions better on both documentation pairs
(docs/evaluation.md, "Refusal").
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from openguru.answers.engine.fusion import Candidate
from openguru.gurus.models import Guru


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


def gate_score(candidates: Sequence[Candidate]) -> float:
    """What the gate refuses on: the question is refused at any threshold above it."""
    return max((c.relevance for c in candidates), default=0.0)


def guru_threshold(guru: Guru, *, setting: float, retrieval_relevance: bool = True) -> float:
    """The threshold `guru` is gated at: its maintainer's own when set (it stands in for the
    deployment's setting), else the calibrated one, else the deployment's. `retrieval_relevance`:
    relevance is the retrieval's (cosine or reranker), the scale the calibration measured; an
    LLM's relevance scores are not."""
    if guru.trust_threshold is not None:
        return guru.trust_threshold
    calibrated = guru.calibrated_trust_threshold
    return calibrated if calibrated is not None and retrieval_relevance else setting


def trust_gate(
    candidates: Sequence[Candidate], *, threshold: float, margin: float, max_keep: int
) -> GateDecision:
    best = gate_score(candidates)
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
