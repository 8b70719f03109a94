"""Hybrid fusion of the dense and BM25 rankings (hand-computed cases)."""

import pytest
from django.test import override_settings
from openguru.answers.fusion import RRF_K, FusionSettings, fuse
from openguru.providers.vectorstore.base import SearchHit

RRF = FusionSettings(method="rrf", dense_weight=0.8, bm25_weight=1.0)
CONVEX = FusionSettings(method="convex", dense_weight=0.8, bm25_weight=1.0)


def hit(id_: str, score: float = 0.5) -> SearchHit:
    return SearchHit(
        id=id_, text=id_, source_id=1, chunk_hash=id_, type="text", metadata={}, score=score
    )


def rrf(bm25_weight: float) -> FusionSettings:
    return FusionSettings(method="rrf", dense_weight=0.8, bm25_weight=bm25_weight)


def test_plain_rrf_sums_reciprocal_ranks():
    fused = fuse([("dense0", [hit("a"), hit("b")]), ("bm25", [hit("b"), hit("c")])], RRF)
    scores = {c.hit.id: c.fused for c in fused}
    assert scores["b"] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert scores["a"] == pytest.approx(1 / (RRF_K + 1))
    assert [c.hit.id for c in fused] == ["b", "a", "c"]


def test_a_lighter_bm25_weight_lets_the_dense_order_win():
    rankings = [("dense0", [hit("x"), hit("a")]), ("bm250", [hit("c")])]
    plain = [c.hit.id for c in fuse(rankings, rrf(1.0))]
    assert plain.index("c") < plain.index("a")  # 1/61 beats 1/62
    lighter = fuse(rankings, rrf(0.3))
    assert [c.hit.id for c in lighter] == ["x", "a", "c"]
    assert lighter[2].fused == pytest.approx(0.3 / (RRF_K + 1))


def test_dense_scores_are_kept_as_cosine():
    for fusion in (RRF, CONVEX):
        fused = fuse([("dense0", [hit("a", 0.8)]), ("bm25", [hit("a", 12.0)])], fusion)
        assert fused[0].dense == pytest.approx(0.8)
        assert fused[0].found_by == ["dense0", "bm25"]


def test_convex_combination_of_theoretically_normalised_scores():
    # Cosines map from [-1, best] onto [0, 1]: a -> 1.8/1.8 = 1, b -> 1.6/1.8.
    # BM25 scores from [0, best]: b -> 10/10 = 1, c -> 5/10 = 0.5.
    fused = fuse(
        [
            ("dense0", [hit("a", 0.8), hit("b", 0.6)]),
            ("bm250", [hit("b", 10.0), hit("c", 5.0)]),
        ],
        CONVEX,
    )
    scores = {c.hit.id: c.fused for c in fused}
    assert scores["a"] == pytest.approx(0.8 * 1.0)
    assert scores["b"] == pytest.approx(0.8 * 1.6 / 1.8 + 0.2 * 1.0)
    assert scores["c"] == pytest.approx(0.2 * 0.5)
    assert [c.hit.id for c in fused] == ["b", "a", "c"]


def test_convex_takes_each_search_kinds_best_score_over_query_variants():
    fused = fuse(
        [
            ("dense0", [hit("a", 0.5), hit("b", 0.2)]),  # b: 1.2 / 1.5 = 0.8
            ("dense1", [hit("b", 0.9)]),  # b: best of its own list -> 1.0
            ("bm250", [hit("a", 4.0)]),
            ("bm251", [hit("a", 2.0), hit("b", 1.0)]),  # b: 0.5
        ],
        CONVEX,
    )
    scores = {c.hit.id: c.fused for c in fused}
    assert scores["a"] == pytest.approx(0.8 * 1.0 + 0.2 * 1.0)
    assert scores["b"] == pytest.approx(0.8 * 1.0 + 0.2 * 0.5)
    assert fused[0].found_by == ["dense0", "bm250", "bm251"]


def test_a_single_list_keeps_its_order():
    hits = [hit("a", 0.9), hit("b", 0.4), hit("c", -0.2)]
    for fusion in (RRF, CONVEX):
        assert [c.hit.id for c in fuse([("dense0", hits)], fusion)] == ["a", "b", "c"]
        assert [c.hit.id for c in fuse([("bm250", hits[:2])], fusion)] == ["a", "b"]


def test_a_list_whose_best_is_the_floor_adds_nothing():
    fused = fuse([("dense0", [hit("a", -1.0)]), ("bm250", [hit("b", 3.0)])], CONVEX)
    assert {c.hit.id: c.fused for c in fused} == {"a": 0.0, "b": pytest.approx(0.2)}


def test_settings_choose_the_method():
    with override_settings(RETRIEVAL_FUSION="rrf", RETRIEVAL_BM25_WEIGHT=0.4):
        assert FusionSettings.from_settings() == FusionSettings("rrf", 0.8, 0.4)
    with override_settings(RETRIEVAL_FUSION="borda"), pytest.raises(ValueError, match="rrf"):
        FusionSettings.from_settings()
