"""Hybrid fusion of the dense and BM25 rankings (hand-computed cases)."""

import pytest
from django.test import override_settings
from openguru.answers.engine.fusion import (
    RRF_K,
    FusionSettings,
    bm25_confidence_weight,
    fuse,
    list_weights,
    parse_bm25_weight,
)
from openguru.providers.vectorstore.base import SearchHit

pytestmark = pytest.mark.fast

RRF = FusionSettings(method="rrf", dense_weight=0.8, bm25_weight=1.0)
CONVEX = FusionSettings(method="convex", dense_weight=0.8, bm25_weight=1.0)


def hit(id_: str, score: float = 0.5) -> SearchHit:
    return SearchHit(
        id=id_, text=id_, source_id=1, chunk_hash=id_, type="text", metadata={}, score=score
    )


def rrf(bm25_weight: float | None) -> FusionSettings:
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
    with override_settings(RETRIEVAL_FUSION="rrf", RETRIEVAL_BM25_WEIGHT="auto"):
        assert FusionSettings.from_settings() == FusionSettings("rrf", 0.8, None)
    with override_settings(RETRIEVAL_FUSION="borda"), pytest.raises(ValueError, match="rrf"):
        FusionSettings.from_settings()


def bm25_list(best: float, tenth: float, *, prefix: str = "k") -> list[SearchHit]:
    """Ten BM25 hits from `best` down to `tenth`."""
    step = (best - tenth) / 9
    return [hit(f"{prefix}{i}", best - i * step) for i in range(10)]


@pytest.mark.parametrize(
    ("best", "tenth", "weight"),
    [
        (6.0, 4.0, 0.25),  # 0.5 * (6 / 4 - 1)
        (5.0, 5.0, 0.0),  # every chunk scores alike: BM25 cannot tell them apart
        (12.0, 4.0, 1.0),  # three times the tenth: capped at a dense ranking's weight
    ],
)
def test_the_bm25_weight_follows_how_far_its_best_stands_out(best, tenth, weight):
    assert bm25_confidence_weight(bm25_list(best, tenth)) == pytest.approx(weight)


def test_fewer_than_ten_bm25_hits_count_fully():
    assert bm25_confidence_weight([hit("a", 3.0), hit("b", 2.9)]) == 1.0
    assert bm25_confidence_weight([]) == 1.0


def test_auto_weights_each_bm25_list_by_its_own_scores():
    dense = [hit(f"d{i}") for i in range(3)]
    flat, peaked = bm25_list(5.0, 5.0, prefix="f"), bm25_list(9.0, 3.0, prefix="p")
    ranked = [("dense0", dense), ("bm250", flat), ("bm251", peaked)]
    assert list_weights(ranked, rrf(None)) == {"dense0": 1.0, "bm250": 0.0, "bm251": 1.0}
    assert list_weights(ranked, rrf(0.3)) == {"dense0": 1.0, "bm250": 0.3, "bm251": 0.3}


def test_a_confident_bm25_ranking_moves_its_hit_up_a_flat_one_does_not():
    dense = [hit("a"), hit("b"), hit("c")]
    tail = [hit(f"x{i}", 4.0) for i in range(9)]

    def order(bm25_best_score: float) -> list[str]:
        ranked = [("dense0", dense), ("bm250", [hit("c", bm25_best_score), *tail])]
        return [c.hit.id for c in fuse(ranked, rrf(None))][:3]

    assert order(12.0) == ["c", "a", "b"]  # weight 1.0: plain RRF
    assert order(4.0) == ["a", "b", "c"]  # weight 0: the dense order stands


@pytest.mark.parametrize(
    ("value", "weight"), [("auto", None), (" Auto ", None), ("0.3", 0.3), (0, 0.0)]
)
def test_the_bm25_weight_setting_is_auto_or_a_number(value, weight):
    assert parse_bm25_weight(value) == weight


@pytest.mark.parametrize("value", ["atuo", "-0.1", "nan", ""])
def test_a_bad_bm25_weight_setting_is_refused(value):
    with pytest.raises(ValueError, match="RETRIEVAL_BM25_WEIGHT"):
        parse_bm25_weight(value)
