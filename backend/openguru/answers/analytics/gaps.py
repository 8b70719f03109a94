"""Docs gaps: the refused and weakly answered questions of a guru, grouped by meaning, so an
admin sees which topics the sources miss ("12 questions about proxies") rather than a list.

Each question is embedded with the configured embedder (an answer's saved vector is reused when
it is of that model and size) and the vectors are clustered agglomeratively with average
linkage on cosine distance, cut at a fixed distance: a group holds questions that are, on
average, at least `GAP_SIMILARITY` alike, and the number of groups follows from the data. A
group's label is its most frequent content words.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.cluster import AgglomerativeClustering
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer

from openguru.answers.analytics.selectors import Interval, answers_in, refusals_in
from openguru.core.platform_settings import platform_settings_get
from openguru.gurus.models import Guru
from openguru.providers.embeddings.base import Embedder

# The newest questions considered: clustering is quadratic in their number.
MAX_GAP_QUESTIONS = 500
# Average cosine similarity within a group: all-MiniLM-L6-v2 puts rewordings of one question
# at about 0.5-0.8, and questions on unrelated topics below 0.2.
GAP_SIMILARITY = 0.5
EXAMPLES_PER_GAP = 5
LABEL_WORDS = 3
MAX_GAPS = 50


@dataclass(frozen=True)
class GapQuestion:
    text: str
    vector: bytes | None  # the saved float32 embedding of an answer, if any


def gap_questions(
    *, guru: Guru, interval: Interval, limit: int = MAX_GAP_QUESTIONS
) -> list[GapQuestion]:
    """The newest refused and low-trust questions of the interval, at most `limit`."""
    low_trust = platform_settings_get().low_trust_threshold
    refused = (
        refusals_in(guru=guru, interval=interval)
        .order_by("-created_at")
        .values_list("user_question", "created_at")[:limit]
    )
    weak = (
        answers_in(guru=guru, interval=interval)
        .filter(trust_score__lt=low_trust)
        .order_by("-created_at")
        .values_list("user_question", "created_at", "vector")[:limit]
    )
    found = [(text, at, None) for text, at in refused] + [
        (text, at, bytes(vector) if vector is not None else None) for text, at, vector in weak
    ]
    found.sort(key=lambda row: row[1], reverse=True)
    return [GapQuestion(text, vector) for text, _, vector in found[:limit]]


def _vectors(questions: list[GapQuestion], embedder: Embedder, reuse: bool) -> np.ndarray:
    size = 4 * embedder.dimension
    rows: list[np.ndarray | None] = [
        np.frombuffer(q.vector, dtype="<f4")
        if reuse and q.vector and len(q.vector) == size
        else None
        for q in questions
    ]
    missing = [n for n, row in enumerate(rows) if row is None]
    if missing:
        fresh = embedder.embed_documents([questions[n].text for n in missing])
        for n, vector in zip(missing, fresh, strict=True):
            rows[n] = np.asarray(vector, dtype="<f4")
    return np.vstack([row for row in rows if row is not None])


def cluster_labels(vectors: np.ndarray, *, similarity: float = GAP_SIMILARITY) -> list[int]:
    """A group number per vector: average-linkage clusters cut at cosine distance
    1 - `similarity`."""
    if len(vectors) < 2:
        return [0] * len(vectors)
    clustering = AgglomerativeClustering(
        n_clusters=None,
        metric="cosine",
        linkage="average",
        distance_threshold=1.0 - similarity,
    )
    return [int(label) for label in clustering.fit_predict(vectors)]


def gap_label(texts: list[str]) -> str:
    """The group's most frequent content words (English stop words left out), most first."""
    try:
        counts = CountVectorizer(stop_words="english", binary=True).fit(texts)
        matrix = counts.transform(texts).sum(axis=0).A1
    except ValueError:  # nothing but stop words
        return texts[0][:80]
    words = counts.get_feature_names_out()
    ranked = sorted(range(len(words)), key=lambda n: (-matrix[n], words[n]))
    picked = [str(words[n]) for n in ranked if words[n] not in ENGLISH_STOP_WORDS]
    return " · ".join(picked[:LABEL_WORDS]) or texts[0][:80]


def docs_gaps(*, guru: Guru, interval: Interval, embedder: Embedder) -> list[dict[str, Any]]:
    """Groups of the interval's refused and low-trust questions, largest first; ties by the
    newest question."""
    questions = gap_questions(guru=guru, interval=interval)
    if not questions:
        return []
    reuse = guru.embedding_model == embedder.model_name
    labels = cluster_labels(_vectors(questions, embedder, reuse))
    members: dict[int, list[str]] = {}
    for label, question in zip(labels, questions, strict=True):
        members.setdefault(label, []).append(question.text)  # newest first within a group
    ordered = sorted(members.values(), key=len, reverse=True)[:MAX_GAPS]
    gaps = []
    for texts in ordered:
        distinct = list(dict.fromkeys(text.strip() for text in texts))
        gaps.append(
            {
                "label": gap_label(texts),
                "size": len(texts),
                "examples": distinct[:EXAMPLES_PER_GAP],
            }
        )
    return gaps
