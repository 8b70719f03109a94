"""What each vector store does beyond the shared contract: Milvus's errors, analyzers and field
limits; the memory store's BM25 and its refusals of what Milvus refuses."""

import socket

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.vectorstore.memory import MemoryVectorStore
from openguru.providers.vectorstore.milvus import MilvusVectorStore

from tests.contracts.vectorstore_cases import (
    DIM,
    make_chunk,
    unique_collection_name,
)

# --- Milvus specifics ----------------------------------------------------------------------------


def test_milvus_unreachable_is_a_transient_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound but not listening: connections are refused
        store = MilvusVectorStore(uri=f"http://127.0.0.1:{port}", timeout_seconds=2)

        with pytest.raises(TransientError) as caught:
            store.ping()

    assert caught.value.code == ErrorCode.PROVIDER_UNAVAILABLE


def test_milvus_rejects_a_collection_of_another_dimension(
    milvus_store: MilvusVectorStore,
) -> None:
    name = unique_collection_name()
    milvus_store.create_collection(name, dimension=DIM)
    try:
        with pytest.raises(DomainError) as caught:
            milvus_store.create_collection(name, dimension=DIM * 2)
    finally:
        milvus_store.drop_collection(name)

    assert caught.value.code == ErrorCode.CONFLICT


@pytest.mark.parametrize(("analyzer", "expected"), [("english", ["run"]), ("standard", [])])
def test_milvus_bm25_analyzer_decides_whether_word_forms_match(
    milvus_server: str, analyzer: str, expected: list[str]
) -> None:
    store = MilvusVectorStore(uri=milvus_server, bm25_analyzer=analyzer)
    name = unique_collection_name()
    store.create_collection(name, dimension=DIM)
    try:
        store.upsert(name, [make_chunk("run", text="running quickly")])

        assert [hit.id for hit in store.search_bm25(name, "runs", limit=5)] == expected
        assert [hit.id for hit in store.search_bm25(name, "running", limit=5)] == ["run"]
    finally:
        store.drop_collection(name)
        store.close()


def test_milvus_collection_keeps_the_analyzer_it_was_created_with(milvus_server: str) -> None:
    standard = MilvusVectorStore(uri=milvus_server, bm25_analyzer="standard")
    english = MilvusVectorStore(uri=milvus_server, bm25_analyzer="english")
    old, new = unique_collection_name(), unique_collection_name()
    standard.create_collection(old, dimension=DIM)
    try:
        standard.upsert(old, [make_chunk("run", text="running quickly")])

        english.create_collection(old, dimension=DIM)  # opens the existing one as it is
        assert english.search_bm25(old, "runs", limit=5) == []

        english.rename_collection(old, new)  # Milvus Lite copies: the copy keeps the analyzer
        assert english.search_bm25(new, "runs", limit=5) == []
        assert [hit.id for hit in english.search_bm25(new, "running", limit=5)] == ["run"]
    finally:
        for name in (old, new):
            english.drop_collection(name)
        standard.close()
        english.close()


def test_milvus_rejects_an_unknown_analyzer(milvus_server: str) -> None:
    with pytest.raises(ValueError, match="english"):
        MilvusVectorStore(uri=milvus_server, bm25_analyzer="klingon")


def test_milvus_rejects_a_type_longer_than_its_field(
    milvus_store: MilvusVectorStore,
) -> None:
    # Milvus Lite would store it; a Milvus server would refuse the whole batch.
    with pytest.raises(DomainError) as caught:
        milvus_store.upsert(unique_collection_name(), [make_chunk("a", type="t" * 17)])

    assert caught.value.code == ErrorCode.INVALID_INPUT


def test_milvus_upsert_into_a_missing_collection_fails(
    milvus_store: MilvusVectorStore,
) -> None:
    with pytest.raises(DomainError) as caught:
        milvus_store.upsert(unique_collection_name(), [make_chunk("a")])

    assert caught.value.code == ErrorCode.NOT_FOUND


# --- Memory specifics ----------------------------------------------------------------------------


@pytest.mark.fast
@pytest.mark.parametrize(("analyzer", "expected"), [("english", ["run"]), ("standard", [])])
def test_memory_bm25_analyzer_decides_whether_word_forms_match(
    analyzer: str, expected: list[str]
) -> None:
    store = MemoryVectorStore(bm25_analyzer=analyzer)
    store.create_collection("c", dimension=DIM)
    store.upsert("c", [make_chunk("run", text="running quickly")])

    assert [hit.id for hit in store.search_bm25("c", "runs", limit=5)] == expected
    assert [hit.id for hit in store.search_bm25("c", "running", limit=5)] == ["run"]


@pytest.mark.fast
def test_memory_bm25_prefers_the_rarer_word_and_the_shorter_text() -> None:
    store = MemoryVectorStore()
    store.create_collection("c", dimension=DIM)
    store.upsert(
        "c",
        [
            make_chunk("common", text="install package install"),
            make_chunk("rare", text="install okapi"),
            make_chunk("long", text="okapi " + "filler words here " * 20),
            make_chunk("other", text="unrelated text"),
        ],
    )

    hits = store.search_bm25("c", "install okapi", limit=5)

    assert [hit.id for hit in hits][:1] == ["rare"]  # both words, one of them rare
    assert {hit.id for hit in hits} == {"common", "rare", "long"}
    long_score = next(hit.score for hit in hits if hit.id == "long")
    short_okapi = store.search_bm25("c", "okapi", limit=5)
    assert [hit.id for hit in short_okapi] == ["rare", "long"]
    assert short_okapi[1].score == pytest.approx(long_score)


@pytest.mark.fast
def test_memory_rejects_what_milvus_rejects() -> None:
    store = MemoryVectorStore()
    store.create_collection("c", dimension=DIM)
    with pytest.raises(DomainError) as other_dimension:
        store.create_collection("c", dimension=DIM * 2)
    with pytest.raises(DomainError) as missing:
        store.upsert("missing", [make_chunk("a")])
    with pytest.raises(DomainError) as long_type:
        store.upsert("c", [make_chunk("a", type="t" * 17)])
    with pytest.raises(DomainError) as short_vector:
        store.upsert("c", [make_chunk("a", vector=[1.0, 0.0])])

    assert other_dimension.value.code == ErrorCode.CONFLICT
    assert missing.value.code == ErrorCode.NOT_FOUND
    assert long_type.value.code == ErrorCode.INVALID_INPUT
    assert short_vector.value.code == ErrorCode.INVALID_INPUT
    assert store.count("c") == 0
