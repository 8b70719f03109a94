"""What the shared layout adds to the vector-store contract (which it passes whole): gurus in one
Milvus collection see, delete and copy only their own rows, even with the same chunk ids; an
empty guru adds no collection; a collection of its own keeps serving until it is moved."""

from collections.abc import Iterator

import pytest
from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.vectorstore.milvus import MilvusVectorStore
from openguru.providers.vectorstore.milvus_shared import SharedMilvusVectorStore

from tests.contracts.vectorstore_cases import (
    DIM,
    axis_vector,
    index_corpus,
    unique_collection_name,
)


@pytest.fixture
def names(milvus_shared_store: SharedMilvusVectorStore) -> Iterator[list[str]]:
    taken = [unique_collection_name() for _ in range(2)]
    for name in taken:
        milvus_shared_store.create_collection(name, dimension=DIM)
        index_corpus(milvus_shared_store, name)  # the same chunk ids in both
    yield taken
    for name in taken:
        milvus_shared_store.drop_collection(name)


def _milvus(uri: str) -> MilvusVectorStore:
    """Sees Milvus collections as they are, not the names the shared layout serves."""
    return MilvusVectorStore(uri=uri)


def test_gurus_share_one_collection(
    milvus_shared_store: SharedMilvusVectorStore, names: list[str], milvus_server: str
) -> None:
    milvus = _milvus(milvus_server)
    try:
        assert not any(milvus.has_collection(name) for name in names)
        assert milvus.has_collection(f"contract_shared_{DIM}d_english")
    finally:
        milvus.close()
    assert {milvus_shared_store.collection_layout(name) for name in names} == {"shared"}


def test_a_guru_reads_only_its_rows(
    milvus_shared_store: SharedMilvusVectorStore, names: list[str]
) -> None:
    mine, theirs = names
    milvus_shared_store.delete(theirs, source_id=1)

    assert milvus_shared_store.count(mine) == 4
    assert milvus_shared_store.count(theirs) == 2
    assert milvus_shared_store.chunk_hashes(mine, source_id=1) == {"hash-a", "hash-b"}
    assert {h.id for h in milvus_shared_store.search_dense(theirs, axis_vector(0), limit=5)} == {
        "c",
        "d",
    }
    assert [h.id for h in milvus_shared_store.search_bm25(theirs, "zebrafish", limit=5)] == []
    assert [h.id for h in milvus_shared_store.search_bm25(mine, "zebrafish", limit=5)] == ["a"]
    assert [h.id for h in milvus_shared_store.chunks_by_id(mine, ["b", "a"])] == ["b", "a"]


def test_dropping_or_copying_a_guru_leaves_the_others_alone(
    milvus_shared_store: SharedMilvusVectorStore, names: list[str]
) -> None:
    mine, theirs = names
    copy = unique_collection_name()
    milvus_shared_store.copy_collection(theirs, copy)
    milvus_shared_store.drop_collection(theirs)
    try:
        assert not milvus_shared_store.has_collection(theirs)
        assert milvus_shared_store.count(theirs) == 0
        assert milvus_shared_store.count(mine) == 4
        assert milvus_shared_store.count(copy) == 4
        hits = milvus_shared_store.search_hybrid(copy, axis_vector(2), "narwhal", limit=1)
        assert [hit.id for hit in hits] == ["c"]
    finally:
        milvus_shared_store.drop_collection(copy)


def test_a_collection_of_its_own_is_served_until_moved(
    milvus_shared_store: SharedMilvusVectorStore, milvus_server: str
) -> None:
    name = unique_collection_name()
    milvus = _milvus(milvus_server)
    milvus.create_collection(name, dimension=DIM)  # made by the per-guru layout
    index_corpus(milvus, name)
    try:
        assert milvus_shared_store.collection_layout(name) == "per_guru"
        assert milvus_shared_store.search_dense(name, axis_vector(2), limit=1)[0].id == "c"
        with pytest.raises(DomainError) as caught:
            milvus_shared_store.drop_own_collection(name)  # not moved: its only copy
        assert caught.value.code == ErrorCode.CONFLICT

        assert milvus_shared_store.adopt_collection(name) == 4

        assert milvus_shared_store.collection_layout(name) == "shared"
        assert milvus.count(name) == 4  # still there for readers that found it before
        milvus_shared_store.drop_own_collection(name)
        assert not milvus.has_collection(name)
        assert milvus_shared_store.search_dense(name, axis_vector(2), limit=1)[0].id == "c"
        assert milvus_shared_store.adopt_collection(name) == 0  # moved already
    finally:
        milvus_shared_store.drop_collection(name)
        milvus.drop_collection(name)
        milvus.close()
