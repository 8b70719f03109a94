"""Reciprocal-rank fusion of the dense and BM25 rankings (hand-computed cases)."""

import pytest
from openguru.answers.retrieval import RRF_K, _rrf
from openguru.providers.vectorstore.base import SearchHit


def hit(id_: str, score: float = 0.5) -> SearchHit:
    return SearchHit(
        id=id_, text=id_, source_id=1, chunk_hash=id_, type="text", metadata={}, score=score
    )


def test_plain_rrf_sums_reciprocal_ranks():
    fused = _rrf(
        [("dense0", [hit("a"), hit("b")]), ("bm25", [hit("b"), hit("c")])], bm25_weight=1.0
    )
    scores = {c.hit.id: c.fused for c in fused}
    assert scores["b"] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert scores["a"] == pytest.approx(1 / (RRF_K + 1))
    assert [c.hit.id for c in fused] == ["b", "a", "c"]


def test_a_lighter_bm25_weight_lets_the_dense_order_win():
    rankings = [("dense0", [hit("x"), hit("a")]), ("bm250", [hit("c")])]
    plain = [c.hit.id for c in _rrf(rankings, bm25_weight=1.0)]
    assert plain.index("c") < plain.index("a")  # 1/61 beats 1/62
    lighter = _rrf(rankings, bm25_weight=0.3)
    assert [c.hit.id for c in lighter] == ["x", "a", "c"]
    assert lighter[2].fused == pytest.approx(0.3 / (RRF_K + 1))


def test_dense_scores_are_kept_as_cosine():
    fused = _rrf([("dense0", [hit("a", 0.8)]), ("bm25", [hit("a", 12.0)])], bm25_weight=0.3)
    assert fused[0].dense == pytest.approx(0.8)
    assert fused[0].found_by == ["dense0", "bm25"]
