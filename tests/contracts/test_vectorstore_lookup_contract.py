"""The vector store contract, continued: reading chunks back by id (what the grounding check
does with the chunks an answer cited). Same cases as test_vectorstore_contract.py."""

from openguru.providers.vectorstore.base import VectorStore

from tests.contracts.vectorstore_cases import (
    axis_vector,
    make_chunk,
    make_source_chunks,
    unique_collection_name,
)


def test_chunks_come_back_by_id_in_the_order_asked(store: VectorStore, collection: str):
    store.upsert(
        collection,
        [
            make_chunk("a", source_id=1, text="alpha", vector=axis_vector(0), metadata={"page": 1}),
            make_chunk("b", source_id=2, text="beta", vector=axis_vector(1), type="code"),
            make_chunk("c", source_id=2, text="gamma", vector=axis_vector(2)),
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


def test_a_long_list_of_ids_is_read_whole(store: VectorStore, collection: str):
    chunks = make_source_chunks(7, 1_200)
    store.upsert(collection, chunks)
    wanted = [c.id for c in reversed(chunks)]
    assert [h.id for h in store.chunks_by_id(collection, wanted)] == wanted


def test_a_missing_collection_holds_no_chunks(store: VectorStore):
    assert store.chunks_by_id(unique_collection_name(), ["a"]) == []
