"""The vector store contract, continued: a collection's BM25 analyzer, and copying a collection
onto the configured one (how existing gurus move to MILVUS_BM25_ANALYZER without re-embedding).

Same cases as test_vectorstore_contract.py: `english` is its `store`, configured with the english
analyzer; `standard` sees the same collections under the standard one, as a process started before the
setting changed would (for Milvus, another client of the same server).
"""

from collections.abc import Iterator

import pytest
from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.vectorstore.base import VectorStore
from openguru.providers.vectorstore.memory import MemoryVectorStore
from openguru.providers.vectorstore.milvus import MilvusVectorStore
from openguru.providers.vectorstore.milvus_shared import SharedMilvusVectorStore

from tests.contracts.vectorstore_cases import (
    DIM,
    axis_vector,
    make_chunk,
    unique_collection_name,
)

STEMMED_CORPUS = [
    make_chunk("run", source_id=1, vector=axis_vector(0), text="The daemon runs every hour"),
    make_chunk("walrus", source_id=1, vector=axis_vector(1), text="Configure the walrus settings"),
    make_chunk(
        "narwhal", source_id=2, vector=axis_vector(2, tilt=0.3), text="Deploy with the narwhal tool"
    ),
    make_chunk(
        "okapi", source_id=3, vector=axis_vector(3), text="Frequently asked: the okapi", type="faq"
    ),
]


@pytest.fixture
def english(store: VectorStore) -> VectorStore:
    return store


@pytest.fixture
def standard(english: VectorStore, request: pytest.FixtureRequest) -> Iterator[VectorStore]:
    if isinstance(english, SharedMilvusVectorStore):
        uri = request.getfixturevalue("milvus_server")
        other: MilvusVectorStore = SharedMilvusVectorStore(
            uri=uri, bm25_analyzer="standard", collection_prefix="contract_"
        )
        yield other
        other.close()
    elif isinstance(english, MilvusVectorStore):
        uri = request.getfixturevalue("milvus_server")
        other = MilvusVectorStore(uri=uri, bm25_analyzer="standard")
        yield other
        other.close()
    else:
        assert isinstance(english, MemoryVectorStore)
        yield MemoryVectorStore(bm25_analyzer="standard", shared_with=english)


@pytest.fixture
def names(english: VectorStore) -> Iterator[list[str]]:
    """Collection names for the test, each dropped afterwards."""
    taken: list[str] = []
    yield taken
    for name in taken:
        english.drop_collection(name)


def _names(names: list[str], count: int) -> list[str]:
    names.extend(unique_collection_name() for _ in range(count))
    return names[-count:]


def _standard_collection(standard: VectorStore, name: str) -> None:
    standard.create_collection(name, dimension=DIM)
    standard.upsert(name, STEMMED_CORPUS)


def test_a_new_collection_has_the_configured_analyzer(
    english: VectorStore, standard: VectorStore, names: list[str]
) -> None:
    stemmed, plain = _names(names, 2)
    english.create_collection(stemmed, dimension=DIM)
    standard.create_collection(plain, dimension=DIM)

    assert english.bm25_analyzer == "english"
    assert standard.bm25_analyzer == "standard"
    assert english.collection_analyzer(stemmed) == "english"
    assert english.collection_analyzer(plain) == "standard"
    assert standard.collection_analyzer(stemmed) == "english"  # whoever asks


def test_the_analyzer_of_a_missing_collection_is_not_found(english: VectorStore) -> None:
    with pytest.raises(DomainError) as caught:
        english.collection_analyzer(unique_collection_name())
    assert caught.value.code == ErrorCode.NOT_FOUND


def test_copy_moves_the_chunks_onto_the_configured_analyzer(
    english: VectorStore, standard: VectorStore, names: list[str]
) -> None:
    old, new = _names(names, 2)
    _standard_collection(standard, old)
    assert english.search_bm25(old, "running", limit=5) == []  # no stemming under standard

    english.copy_collection(old, new)

    assert english.collection_analyzer(new) == "english"
    assert [hit.id for hit in english.search_bm25(new, "running", limit=5)] == ["run"]
    assert english.count(new) == english.count(old) == len(STEMMED_CORPUS)
    for source_id in (1, 2, 3):
        assert english.count(new, source_id=source_id) == english.count(old, source_id=source_id)
        assert english.chunk_hashes(new, source_id=source_id) == english.chunk_hashes(
            old, source_id=source_id
        )


def test_copy_keeps_the_vectors(
    english: VectorStore, standard: VectorStore, names: list[str]
) -> None:
    old, new = _names(names, 2)
    _standard_collection(standard, old)

    english.copy_collection(old, new)

    # Every chunk at its own distance from each query: no ties to order either way.
    for query in ([8, 7, 6, 5, 4, 3, 2, 1], [1, 3, 2, 5, 4, 0, 0, 1], [-1, 2, -3, 4, 0, 0, 0, 0]):
        before = english.search_dense(old, query, limit=4)
        after = english.search_dense(new, query, limit=4)
        assert [hit.id for hit in after] == [hit.id for hit in before]
        assert [hit.score for hit in after] == pytest.approx([hit.score for hit in before])
        assert [(h.text, h.source_id, h.chunk_hash, h.type, h.metadata) for h in after] == [
            (h.text, h.source_id, h.chunk_hash, h.type, h.metadata) for h in before
        ]


def test_copy_leaves_the_old_collection_as_it_was(
    english: VectorStore, standard: VectorStore, names: list[str]
) -> None:
    old, new = _names(names, 2)
    _standard_collection(standard, old)

    english.copy_collection(old, new)
    english.upsert(new, [make_chunk("extra", source_id=4, text="running late")])

    assert english.has_collection(old)
    assert english.collection_analyzer(old) == "standard"
    assert english.count(old) == len(STEMMED_CORPUS)
    assert english.search_bm25(old, "running", limit=5) == []
    assert [hit.id for hit in english.search_bm25(old, "runs", limit=5)] == ["run"]


def test_copy_of_many_chunks_copies_them_all(
    english: VectorStore, standard: VectorStore, names: list[str]
) -> None:
    old, new = _names(names, 2)
    standard.create_collection(old, dimension=DIM)
    # More than one page of the Milvus copy (1,000 rows).
    chunks = [
        make_chunk(
            f"c{n:05d}", source_id=n % 3, vector=axis_vector(n, tilt=n / 2500), text=f"item {n}"
        )
        for n in range(2_345)
    ]
    standard.upsert(old, chunks)

    english.copy_collection(old, new)

    assert english.count(new) == 2_345
    assert english.count(new, source_id=2) == english.count(old, source_id=2)


def test_copy_of_an_empty_collection(english: VectorStore, names: list[str]) -> None:
    old, new = _names(names, 2)
    english.create_collection(old, dimension=DIM)

    english.copy_collection(old, new)

    assert english.count(new) == 0
    assert english.search_bm25(new, "anything", limit=5) == []
    english.upsert(new, [make_chunk("a", vector=axis_vector(1))])
    assert [hit.id for hit in english.search_dense(new, axis_vector(1), limit=1)] == ["a"]


def test_copy_of_a_missing_collection_is_not_found(english: VectorStore, names: list[str]) -> None:
    old, new = _names(names, 2)
    with pytest.raises(DomainError) as caught:
        english.copy_collection(old, new)
    assert caught.value.code == ErrorCode.NOT_FOUND
    assert not english.has_collection(new)


def test_copy_onto_an_existing_collection_is_a_conflict(
    english: VectorStore, standard: VectorStore, names: list[str]
) -> None:
    old, new = _names(names, 2)
    _standard_collection(standard, old)
    english.create_collection(new, dimension=DIM)
    english.upsert(new, [make_chunk("kept")])

    with pytest.raises(DomainError) as caught:
        english.copy_collection(old, new)

    assert caught.value.code == ErrorCode.CONFLICT
    assert english.count(new) == 1


def test_rename_keeps_the_analyzer(
    english: VectorStore, standard: VectorStore, names: list[str]
) -> None:
    old, new = _names(names, 2)
    _standard_collection(standard, old)

    english.rename_collection(old, new)

    assert english.collection_analyzer(new) == "standard"
    assert english.search_bm25(new, "running", limit=5) == []


def test_an_empty_collection_can_be_renamed(english: VectorStore, names: list[str]) -> None:
    old, new = _names(names, 2)
    english.create_collection(old, dimension=DIM)

    english.rename_collection(old, new)

    assert not english.has_collection(old)
    assert english.count(new) == 0
