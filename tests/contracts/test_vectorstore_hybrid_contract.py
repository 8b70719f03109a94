"""The vector-store contract, continued: a hybrid search's order and scores are those of
reciprocal-rank fusion over its dense and BM25 rankings, as Milvus's RRFRanker computes them."""

import math

import pytest
from openguru.providers.vectorstore.base import RRF_K, SearchFilter, VectorStore

from tests.contracts.vectorstore_cases import DIM, index_corpus


def _vector(*components: float) -> list[float]:
    """A unit vector: cosine similarity with the corpus' axis vectors ranks them by component."""
    padded = [*components, *[0.0] * (DIM - len(components))]
    norm = math.sqrt(sum(x * x for x in padded))
    return [x / norm for x in padded]


def _rrf(*ranks: int) -> float:
    return sum(1.0 / (RRF_K + rank) for rank in ranks)


def test_hybrid_scores_are_the_reciprocal_rank_fusion(store: VectorStore, collection: str) -> None:
    index_corpus(store, collection)
    # dense: a, c, d, b; BM25: b ("walrus", in the shorter text), then c ("narwhal")
    hits = store.search_hybrid(collection, _vector(1.0, 0.1, 0.4, 0.2), "walrus narwhal", limit=4)

    assert [hit.id for hit in hits] == ["c", "b", "a", "d"]
    assert [hit.score for hit in hits] == pytest.approx(
        [_rrf(2, 2), _rrf(4, 1), _rrf(1), _rrf(3)], rel=1e-6
    )
    assert [hit.text for hit in hits][:2] == [
        "Deploy with the narwhal tool",
        "Configure the walrus settings",
    ]


def test_hybrid_puts_the_smaller_id_first_on_equal_scores(
    store: VectorStore, collection: str
) -> None:
    index_corpus(store, collection)
    # dense: c, b, a, d; BM25: b, c. So b and c both score 1/61 + 1/62.
    hits = store.search_hybrid(collection, _vector(0.2, 0.4, 1.0, 0.1), "walrus narwhal", limit=3)

    assert [hit.id for hit in hits] == ["b", "c", "a"]
    assert hits[0].score == pytest.approx(hits[1].score)


def test_hybrid_fuses_the_filtered_rankings(store: VectorStore, collection: str) -> None:
    index_corpus(store, collection)
    where = SearchFilter(source_ids=[1, 3])  # a, b and d
    # dense: a, d, b; BM25: b
    hits = store.search_hybrid(
        collection, _vector(1.0, 0.1, 0.4, 0.2), "walrus narwhal", limit=4, where=where
    )

    assert [hit.id for hit in hits] == ["b", "a", "d"]
    assert [hit.score for hit in hits] == pytest.approx([_rrf(3, 1), _rrf(1), _rrf(2)], rel=1e-6)
