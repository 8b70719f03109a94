"""One contract for every vector store: what indexing and retrieval rely on (collections,
writes, searches). The cases and fixtures are in vectorstore_cases.py; the analyzer and lookup
contracts continue it in their own files, and each store's own behaviour is in
test_vectorstore_specifics.py."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from openguru.providers.vectorstore.base import SearchFilter, VectorStore
from openguru.providers.vectorstore.milvus_schema import MAX_TEXT_BYTES

from tests.contracts.vectorstore_cases import (
    DIM,
    axis_vector,
    index_corpus,
    make_chunk,
    make_source_chunks,
    unique_collection_name,
)

# --- Collections ---------------------------------------------------------------------------------


class TestCollections:
    def test_ping_succeeds(self, store: VectorStore) -> None:
        store.ping()

    def test_create_is_idempotent_and_keeps_data(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, [make_chunk("a")])

        store.create_collection(collection, dimension=DIM)

        assert store.has_collection(collection)
        assert store.count(collection) == 1

    def test_drop_is_idempotent(self, store: VectorStore) -> None:
        name = unique_collection_name()
        store.create_collection(name, dimension=DIM)

        store.drop_collection(name)
        store.drop_collection(name)

        assert not store.has_collection(name)

    def test_rename_moves_chunks_and_keeps_them_searchable(self, store: VectorStore) -> None:
        old, new = unique_collection_name(), unique_collection_name()
        store.create_collection(old, dimension=DIM)
        index_corpus(store, old)
        try:
            store.rename_collection(old, new)

            assert not store.has_collection(old)
            assert store.count(new) == 4
            assert store.chunk_hashes(new, source_id=1) == {"hash-a", "hash-b"}
            assert store.search_dense(new, axis_vector(2), limit=1)[0].id == "c"
            assert [hit.id for hit in store.search_bm25(new, "okapi", limit=5)] == ["d"]
        finally:
            store.drop_collection(old)
            store.drop_collection(new)

    def test_missing_collection_reads_as_empty(self, store: VectorStore) -> None:
        name = unique_collection_name()

        assert not store.has_collection(name)
        assert store.search_dense(name, axis_vector(0), limit=5) == []
        assert store.search_bm25(name, "zebrafish", limit=5) == []
        assert store.search_hybrid(name, axis_vector(0), "zebrafish", limit=5) == []
        assert store.count(name) == 0
        assert store.chunk_hashes(name, source_id=1) == set()
        assert store.delete(name, source_id=1) == 0

    def test_empty_collection_finds_nothing(self, store: VectorStore, collection: str) -> None:
        # A new guru asked before its first source is indexed: no rows, so no BM25 statistics.
        assert store.search_dense(collection, axis_vector(0), limit=5) == []
        assert store.search_bm25(collection, "zebrafish", limit=5) == []
        assert store.search_hybrid(collection, axis_vector(0), "zebrafish", limit=5) == []

    def test_a_collection_emptied_by_deletes_finds_nothing(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, make_source_chunks(1, 2))
        store.delete(collection, source_id=1)
        assert store.search_bm25(collection, "zebrafish", limit=5) == []
        assert store.search_hybrid(collection, axis_vector(0), "zebrafish", limit=5) == []


# --- Writes --------------------------------------------------------------------------------------


class TestWrites:
    def test_upsert_then_count_all_and_per_source(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, make_source_chunks(1, 3) + make_source_chunks(2, 2))

        assert store.count(collection) == 5
        assert store.count(collection, source_id=1) == 3
        assert store.count(collection, source_id=2) == 2
        assert store.count(collection, source_id=99) == 0

    def test_upserting_an_id_again_replaces_the_row(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, [make_chunk("a", text="first version")])
        store.upsert(collection, [make_chunk("a", text="second version")])

        assert store.count(collection) == 1
        hits = store.search_dense(collection, axis_vector(0, tilt=0.5), limit=5)
        assert [(hit.id, hit.text) for hit in hits] == [("a", "second version")]

    def test_one_call_can_replace_stored_rows_and_add_new_ones(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, [make_chunk("a", text="first version")])
        store.upsert(collection, [make_chunk("b", text="new"), make_chunk("a", text="second")])

        assert store.count(collection) == 2
        hits = store.chunks_by_id(collection, ["a", "b"])
        assert [(hit.id, hit.text) for hit in hits] == [("a", "second"), ("b", "new")]

    def test_repeated_id_in_one_call_keeps_the_last(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, [make_chunk("a", text="older"), make_chunk("a", text="newer")])

        assert store.count(collection) == 1
        assert store.search_dense(collection, axis_vector(0, tilt=0.5), limit=5)[0].text == "newer"

    def test_chunk_hashes_lists_one_source(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, make_source_chunks(1, 3) + make_source_chunks(2, 2))

        assert store.chunk_hashes(collection, source_id=1) == {
            "s1-h0",
            "s1-h1",
            "s1-h2",
        }
        assert store.chunk_hashes(collection, source_id=2) == {"s2-h0", "s2-h1"}
        assert store.chunk_hashes(collection, source_id=3) == set()

    def test_delete_a_whole_source(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, make_source_chunks(1, 3) + make_source_chunks(2, 2))

        assert store.delete(collection, source_id=1) == 3

        assert store.count(collection, source_id=1) == 0
        assert store.chunk_hashes(collection, source_id=2) == {"s2-h0", "s2-h1"}
        assert store.delete(collection, source_id=1) == 0

    def test_delete_only_some_hashes_of_a_source(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, make_source_chunks(1, 3) + make_source_chunks(2, 3))

        # s2-h0 belongs to the other source and must survive
        deleted = store.delete(collection, source_id=1, chunk_hashes=["s1-h0", "s1-h2", "s2-h0"])

        assert deleted == 2
        assert store.chunk_hashes(collection, source_id=1) == {"s1-h1"}
        assert store.chunk_hashes(collection, source_id=2) == {
            "s2-h0",
            "s2-h1",
            "s2-h2",
        }
        assert store.delete(collection, source_id=1, chunk_hashes=[]) == 0
        assert store.delete(collection, source_id=1, chunk_hashes=["unknown"]) == 0

    def test_delete_a_long_hash_list(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, make_source_chunks(1, 2_600))
        doomed = [f"s1-h{n}" for n in range(0, 2_600, 2)]  # 1,300 hashes, every other chunk

        assert store.delete(collection, source_id=1, chunk_hashes=doomed) == 1_300

        remaining = store.chunk_hashes(collection, source_id=1)
        assert remaining == {f"s1-h{n}" for n in range(1, 2_600, 2)}

    @pytest.mark.slow
    def test_chunk_hashes_of_a_source_beyond_one_query_window(
        self, store: VectorStore, collection: str
    ) -> None:
        # Milvus returns at most 16,384 rows per query: a big source needs paging.
        store.upsert(collection, make_source_chunks(7, 16_500))

        hashes = store.chunk_hashes(collection, source_id=7)

        assert len(hashes) == 16_500
        assert hashes == {f"s7-h{n}" for n in range(16_500)}

    def test_multibyte_text_over_the_limit_is_cut_on_a_character(
        self, store: VectorStore, collection: str
    ) -> None:
        # 3-byte and 4-byte characters, so the byte limit falls inside one of them
        long_text = "marker " + "字🦓" * (MAX_TEXT_BYTES // 7 + 10)
        fitting_text = "fits " + "é" * ((MAX_TEXT_BYTES - 5) // 2)
        store.upsert(
            collection,
            [
                make_chunk("long", text=long_text, vector=axis_vector(4)),
                make_chunk("fits", text=fitting_text, vector=axis_vector(5)),
            ],
        )

        stored_long = store.search_dense(collection, axis_vector(4), limit=1)[0].text
        stored_fitting = store.search_dense(collection, axis_vector(5), limit=1)[0].text
        assert long_text.startswith(stored_long)
        assert MAX_TEXT_BYTES - 4 < len(stored_long.encode()) <= MAX_TEXT_BYTES
        assert stored_fitting == fitting_text
        assert [hit.id for hit in store.search_bm25(collection, "marker", limit=5)] == ["long"]

    def test_metadata_round_trips(self, store: VectorStore, collection: str) -> None:
        metadata = {
            "title": "Démarrage",
            "link": "https://example.org/a?b=1",
            "page": 3,
            "headings": ["Guide", "Install"],
        }
        store.upsert(collection, [make_chunk("a", metadata=metadata)])

        assert (
            store.search_dense(collection, axis_vector(0, tilt=0.5), limit=1)[0].metadata
            == metadata
        )


# --- Search --------------------------------------------------------------------------------------


class TestSearch:
    def test_dense_ranks_the_nearest_first(self, store: VectorStore, collection: str) -> None:
        index_corpus(store, collection)

        hits = store.search_dense(collection, axis_vector(1, tilt=0.2), limit=4)

        assert [hit.id for hit in hits][:2] == ["b", "c"]
        assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
        assert len(hits) == 4

    def test_dense_scores_an_identical_vector_near_one(
        self, store: VectorStore, collection: str
    ) -> None:
        index_corpus(store, collection)

        best = store.search_dense(collection, axis_vector(3), limit=1)[0]

        assert best.id == "d"
        assert best.score == pytest.approx(1.0, abs=1e-4)
        assert (best.source_id, best.chunk_hash, best.type) == (3, "hash-d", "faq")
        assert best.text == "Frequently asked: the okapi"

    def test_dense_respects_the_limit(self, store: VectorStore, collection: str) -> None:
        index_corpus(store, collection)

        assert len(store.search_dense(collection, axis_vector(0), limit=2)) == 2

    def test_bm25_finds_the_chunk_with_the_rare_word(
        self, store: VectorStore, collection: str
    ) -> None:
        index_corpus(store, collection)

        hits = store.search_bm25(collection, "where is the narwhal", limit=5)

        assert hits[0].id == "c"
        assert all(hit.score > 0 for hit in hits)

    def test_bm25_matches_another_form_of_a_word(self, store: VectorStore, collection: str) -> None:
        # The store is configured with English stemming: "runs" and "running" share a stem.
        store.upsert(
            collection,
            [
                make_chunk("run", text="running quickly", vector=axis_vector(0)),
                make_chunk("other", text="walking slowly", vector=axis_vector(1)),
            ],
        )

        assert [hit.id for hit in store.search_bm25(collection, "runs", limit=5)] == ["run"]

    def test_bm25_without_matching_words_finds_nothing(
        self, store: VectorStore, collection: str
    ) -> None:
        index_corpus(store, collection)

        assert store.search_bm25(collection, "platypus", limit=5) == []
        assert store.search_bm25(collection, "   ", limit=5) == []

    def test_hybrid_returns_both_rankings_fused(self, store: VectorStore, collection: str) -> None:
        index_corpus(store, collection)

        # the vector points at "a", the words at "c"
        hits = store.search_hybrid(collection, axis_vector(0), "narwhal", limit=4)

        assert {hit.id for hit in hits[:2]} == {"a", "c"}
        assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)

    def test_hybrid_ranks_first_the_chunk_both_rankings_agree_on(
        self, store: VectorStore, collection: str
    ) -> None:
        index_corpus(store, collection)

        hits = store.search_hybrid(collection, axis_vector(2), "narwhal", limit=4)

        assert hits[0].id == "c"
        assert hits[0].score > hits[1].score

    def test_hybrid_without_words_follows_the_vector(
        self, store: VectorStore, collection: str
    ) -> None:
        index_corpus(store, collection)

        hits = store.search_hybrid(collection, axis_vector(3), "  ", limit=2)

        assert hits[0].id == "d"

    @pytest.mark.parametrize(
        ("where", "expected"),
        [
            (SearchFilter(source_ids=[1]), {"a", "b"}),
            (SearchFilter(source_ids=[2, 3]), {"c", "d"}),
            (SearchFilter(types=["code", "faq"]), {"c", "d"}),
            (SearchFilter(source_ids=[1, 2], types=["code"]), {"c"}),
            (SearchFilter(source_ids=[]), set()),
            (SearchFilter(types=[]), set()),
            (SearchFilter(types=["nope"]), set()),
        ],
    )
    def test_filters_apply_to_every_search(
        self,
        store: VectorStore,
        collection: str,
        where: SearchFilter,
        expected: set[str],
    ) -> None:
        index_corpus(store, collection)
        every_word = "zebrafish walrus narwhal okapi"

        dense = store.search_dense(collection, axis_vector(0), limit=10, where=where)
        bm25 = store.search_bm25(collection, every_word, limit=10, where=where)
        hybrid = store.search_hybrid(collection, axis_vector(0), every_word, limit=10, where=where)

        assert {hit.id for hit in dense} == expected
        assert {hit.id for hit in bm25} == expected
        assert {hit.id for hit in hybrid} == expected

    def test_type_filter_takes_quotes_and_backslashes_literally(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(
            collection,
            [
                make_chunk("quoted", type='a"b\\c', vector=axis_vector(0)),
                make_chunk("other", type="a", vector=axis_vector(1)),
            ],
        )

        exact = SearchFilter(types=['a"b\\c'])
        injection = SearchFilter(types=['a" or type != "'])

        assert [
            hit.id for hit in store.search_dense(collection, axis_vector(0), limit=5, where=exact)
        ] == ["quoted"]
        assert store.search_dense(collection, axis_vector(0), limit=5, where=injection) == []

    def test_concurrent_searches_from_threads(self, store: VectorStore, collection: str) -> None:
        index_corpus(store, collection)

        def nearest(axis: int) -> str:
            return store.search_dense(collection, axis_vector(axis), limit=1)[0].id

        with ThreadPoolExecutor(max_workers=8) as pool:
            found = list(pool.map(nearest, [0, 1, 2, 3] * 8))

        assert found == ["a", "b", "c", "d"] * 8
