"""A guru's own trust threshold, calibrated from its corpus after ingestion.

Cosine scales differ from corpus to corpus (a guru of terse API entries scores its own questions
lower than one of prose), so one deployment-wide threshold refuses too little for one guru and
too much for another. The guru's section headings stand in for questions it can answer: each is
asked through the answer path with the chunks under it left out (a heading matches its own
section word for word, which a real question does not), and the threshold is the score that
CALIBRATION_PERCENTILE per cent of them fall below. `make eval` measures it against the fixed
setting (docs/evaluation.md, "Refusal").
"""

import logging
from collections.abc import Sequence

import numpy as np
from django.conf import settings

from openguru.answers.engine.gate import gate_score
from openguru.answers.engine.retrieval import answer_mode, retrieve
from openguru.gurus.models import Guru
from openguru.providers.embeddings.base import Embedder
from openguru.providers.rerank.base import Reranker
from openguru.providers.vectorstore.base import SearchHit, VectorStore
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)

CALIBRATION_QUESTIONS = 300  # headings asked; a few seconds of searches
CALIBRATION_PERCENTILE = 10.0  # the share of its own topics the guru may refuse
MIN_QUESTIONS = 20  # fewer headings than this say too little: keep the deployment setting
MAX_CHUNKS_READ = 50_000  # per guru, to sample headings from across the whole corpus


def heading_questions(hits: Sequence[SearchHit], *, limit: int) -> list[str]:
    """Up to `limit` distinct headings, spread evenly over the chunks."""
    questions = list(dict.fromkeys(h for h in map(heading, sorted(hits, key=lambda h: h.id)) if h))
    if len(questions) <= limit:
        return questions
    step = len(questions) / limit
    return [questions[int(i * step)] for i in range(limit)]


def heading(hit: SearchHit) -> str:
    """The chunk's own heading: its heading path's last part, else its document's title."""
    path = str(hit.metadata.get("heading_path") or hit.metadata.get("title") or "")
    return path.split(" > ")[-1].strip()


def calibrated_threshold(scores: Sequence[float], *, percentile: float) -> float | None:
    if len(scores) < MIN_QUESTIONS:
        return None
    return round(float(np.percentile(np.asarray(scores, dtype=float), percentile)), 4)


def heading_scores(
    *,
    guru: Guru,
    embedder: Embedder,
    store: VectorStore,
    reranker: Reranker | None,
    questions: int = CALIBRATION_QUESTIONS,
) -> list[float]:
    """The gate's score for each sampled heading, the chunks under that heading left out (a
    heading whose candidates all sat under it is skipped)."""
    hits: list[SearchHit] = []
    for source_id in DataSource.objects.filter(guru=guru).values_list("pk", flat=True):
        left = MAX_CHUNKS_READ - len(hits)
        if left <= 0:
            break
        hits += store.source_chunks(guru.collection_name, source_id=source_id, limit=left)
    scores = []
    for question in heading_questions(hits, limit=questions):
        candidates = retrieve(
            collection=guru.collection_name,
            queries=[question],
            mode=answer_mode(reranker),
            limit=settings.RETRIEVAL_CANDIDATES,
            embedder=embedder,
            store=store,
            reranker=reranker,
        ).candidates
        elsewhere = [c for c in candidates if heading(c.hit) != question]
        if elsewhere:  # else every candidate sat under the heading: it tells nothing
            scores.append(gate_score(elsewhere))
    return scores


def guru_trust_calibrate(
    *, guru: Guru, embedder: Embedder, store: VectorStore, reranker: Reranker | None
) -> float | None:
    """Calibrate and store the guru's trust threshold; None (stored too) when it has too few
    headings to tell, and the deployment's setting applies."""
    threshold = calibrated_threshold(
        heading_scores(guru=guru, embedder=embedder, store=store, reranker=reranker),
        percentile=CALIBRATION_PERCENTILE,
    )
    Guru.objects.filter(pk=guru.pk).update(calibrated_trust_threshold=threshold)
    guru.calibrated_trust_threshold = threshold
    logger.info("guru %s: calibrated trust threshold %s", guru.slug, threshold)
    return threshold
