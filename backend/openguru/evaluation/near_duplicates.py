"""How often the near-duplicate cache would reuse an answer for a different question: every
pair of a dataset's distinct questions whose embeddings are at least the similarity setting
alike, and how many of those pairs the wording guard (`answers.wording`) still lets through.

A dataset's questions are distinct questions, so a reused pair is a wrong answer unless the two
are the same question written twice; the report lists the reused pairs to be read.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np

from openguru.answers.wording import same_question
from openguru.providers.embeddings.base import Embedder

BLOCK_ROWS = 1024  # rows of the similarity matrix held at once (6,000 questions: 25 MB a block)
EXAMPLES = 5


def near_duplicate_record(
    *, dataset: str, questions: Sequence[str], embedder: Embedder, threshold: float
) -> dict[str, Any]:
    texts = sorted({q.strip() for q in questions if q.strip()})
    pairs = similar_pairs(_unit_rows(texts, embedder), threshold)
    reused = [(texts[i], texts[j]) for i, j in pairs if same_question(texts[i], texts[j])]
    return {
        "dataset": dataset,
        "questions": len(texts),
        "threshold": threshold,
        "similar_pairs": len(pairs),
        "reused_pairs": len(reused),
        "reused_examples": [list(pair) for pair in reused[:EXAMPLES]],
    }


def _unit_rows(texts: Sequence[str], embedder: Embedder) -> np.ndarray:
    rows = np.asarray([embedder.embed_query(text) for text in texts], dtype=np.float32)
    if not len(rows):
        return rows
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)


def similar_pairs(unit_rows: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """Index pairs (i < j) whose rows' cosine is at least `threshold`, in order."""
    pairs: list[tuple[int, int]] = []
    for start in range(0, len(unit_rows), BLOCK_ROWS):
        block = unit_rows[start : start + BLOCK_ROWS] @ unit_rows.T
        for offset, j in zip(*np.nonzero(block >= threshold), strict=True):
            i = start + int(offset)
            if i < int(j):
                pairs.append((i, int(j)))
    return pairs
