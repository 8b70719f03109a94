"""The vector store contract, continued: reading chunks back by id (what the grounding check
does with the chunks an answer cited). Same cases as test_vectorstore_contract.py."""

from openguru.providers.vectorstore.base import VectorStore

from tests.contracts.test_vectorstore_contract import (  # noqa: F401  (fixtures by name)
    _axis,
    _chunk,
    _source_chunks,
    _unique_name,
    collection,
    memory_store,
    milvus_store,
    store,
)


def test_chunks_come_back_by_id_in_the_order_asked(store: VectorStore, collection: str):  # noqa: F811
    store.upsert(
        collection,
        [
            _chunk("a", source_id=1, text="alpha", vector=_axis(0), metadata={"page": 1}),
            _chunk("b", source_id=2, text="beta", vector=_axis(1), type="code"),
            _chunk("c", source_id=2, text="gamma", vector=_axis(2)),
        ],
    )

    hits = store.chunks_by_id(collection, ["c", "nowhere", "a", "c"])

    assert [h.id for h in hits] == ["c", "a"]  # unknown ids left out, repeats once
    assert [(h.text, h.source_id, h.type) for h in hits] == [
        ("gamma", 2, "text"),
        ("alpha", 1, "text"),
    ]
    assert hits[1].metadata == {"page": 1} and hits[1].chunk_hash == "hash-a"
    assert store.chunks_by_id(collection, []) == []


def test_a_long_list_of_ids_is_read_whole(store: VectorStore, collection: str):  # noqa: F811
    chunks = _source_chunks(7, 1_200)
    store.upsert(collection, chunks)
    wanted = [c.id for c in reversed(chunks)]
    assert [h.id for h in store.chunks_by_id(collection, wanted)] == wanted


def test_a_missing_collection_holds_no_chunks(store: VectorStore):  # noqa: F811
    assert store.chunks_by_id(_unique_name(), ["a"]) == []
