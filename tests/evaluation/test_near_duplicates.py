"""Counting the question pairs the near-duplicate cache would match."""

import numpy as np
from openguru.evaluation import near_duplicates
from openguru.evaluation.near_duplicates import similar_pairs


def test_pairs_are_found_across_blocks_once_each(monkeypatch):
    monkeypatch.setattr(near_duplicates, "BLOCK_ROWS", 2)  # rows 0-1, 2-3, 4
    rows = np.asarray([[1, 0], [0, 1], [1, 0], [0.6, 0.8], [0, 1]], dtype=np.float32)
    assert similar_pairs(rows, 0.95) == [(0, 2), (1, 4)]
    assert similar_pairs(rows, 0.75) == [(0, 2), (1, 3), (1, 4), (3, 4)]
    assert similar_pairs(rows[:0], 0.5) == []
