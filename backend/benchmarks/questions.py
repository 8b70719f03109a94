"""Distinct, in-scope questions for the answer sections, made from the indexed section headings.

Every measured ask must reach the LLM: the question cache answers a repeated or near-duplicate
question (cosine >= the platform's threshold) without one, and the trust gate refuses questions
the sources do not cover. Questions built from the guru's own headings are in scope, and a greedy
filter on their embeddings keeps only questions well below the cache's similarity threshold.
"""

import re
from collections.abc import Iterable, Iterator, Sequence

import numpy as np
from openguru.providers.embeddings.base import Embedder

TEMPLATES = (
    "How does {topic} work in Python?",
    "What should I know about {topic}?",
    "Can you explain {topic} with an example?",
    "When would I use {topic}?",
)
_NUMBERING = re.compile(r"^\s*(?:[A-Z]?\d+(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+")
_SKIPPED = frozenset(
    {"footnotes", "table of contents", "navigation", "see also", "notes", "introduction"}
)
MARGIN_BELOW_CACHE = 0.05


def topics_from_headings(heading_paths: Iterable[str]) -> list[str]:
    """The last heading of each path, numbering stripped, generic ones skipped, first seen
    first, without repeats (case-insensitively)."""
    seen: set[str] = set()
    topics: list[str] = []
    for path in heading_paths:
        last = path.split(" > ")[-1]
        topic = _NUMBERING.sub("", last).strip().strip("¶").strip()
        key = topic.casefold()
        if len(topic) < 4 or key in _SKIPPED or key in seen:
            continue
        seen.add(key)
        topics.append(topic)
    return topics


def candidate_questions(topics: Sequence[str]) -> Iterator[str]:
    """Every topic in the first template, then every topic in the second, and so on: the
    earliest questions cover the most ground."""
    for template in TEMPLATES:
        for topic in topics:
            yield template.format(topic=topic)


class DistinctFilter:
    """Greedy: accepts a vector only if its cosine to every accepted one is below the limit."""

    def __init__(self, dimension: int, max_similarity: float, capacity: int) -> None:
        self.max_similarity = max_similarity
        self._kept = np.zeros((capacity, dimension), dtype=np.float32)
        self.count = 0

    def accept(self, vector: np.ndarray) -> bool:
        unit = vector / max(float(np.linalg.norm(vector)), 1e-12)
        if self.count >= len(self._kept):
            return False
        if self.count and float(np.max(self._kept[: self.count] @ unit)) >= self.max_similarity:
            return False
        self._kept[self.count] = unit
        self.count += 1
        return True


def question_pool(
    embedder: Embedder,
    heading_paths: Iterable[str],
    *,
    cache_threshold: float,
    needed: int,
    batch: int = 256,
) -> list[str]:
    """Up to `needed` questions, pairwise less alike than the cache would ever reuse."""
    candidates = list(candidate_questions(topics_from_headings(heading_paths)))
    keep = DistinctFilter(embedder.dimension, cache_threshold - MARGIN_BELOW_CACHE, needed)
    pool: list[str] = []
    for start in range(0, len(candidates), batch):
        texts = candidates[start : start + batch]
        for text, vector in zip(texts, embedder.embed_documents(texts), strict=True):
            if keep.accept(np.asarray(vector, dtype=np.float32)):
                pool.append(text)
        if len(pool) >= needed:
            break
    return pool


class QuestionSupply:
    """Hands out each question once across all sections."""

    def __init__(self, questions: Sequence[str]) -> None:
        self._questions = list(questions)
        self._next = 0

    @property
    def left(self) -> int:
        return len(self._questions) - self._next

    def take(self, count: int) -> list[str]:
        if count > self.left:
            raise RuntimeError(
                f"need {count} more distinct questions, only {self.left} left; index more pages"
            )
        taken = self._questions[self._next : self._next + count]
        self._next += count
        return taken
