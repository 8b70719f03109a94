"""One contract for every vector store: what indexing and retrieval rely on.

The Milvus case runs against the real Milvus Lite engine served on a loopback port by the
session `milvus_server` fixture; the memory case needs no server, so it runs in the fast lane.
Another implementation joins by adding a fixture and a case.
"""

import math
import socket
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.vectorstore.base import ChunkRecord, SearchFilter, VectorStore
from openguru.providers.vectorstore.memory import MemoryVectorStore
from openguru.providers.vectorstore.milvus import MilvusVectorStore
from openguru.providers.vectorstore.milvus_schema import MAX_TEXT_BYTES

DIM = 8

STORE_CASES = [
    pytest.param("milvus_store", id="milvus"),
    pytest.param("memory_store", id="memory", marks=pytest.mark.fast),
]


# --- Fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def milvus_store(milvus_server: str) -> Iterator[MilvusVectorStore]:
    store = MilvusVectorStore(uri=milvus_server, bm25_analyzer="english")
    yield store
    store.close()


@pytest.fixture(scope="module")
def memory_store() -> MemoryVectorStore:
    return MemoryVectorStore(bm25_analyzer="english")


@pytest.fixture(params=STORE_CASES)
def store(request: pytest.FixtureRequest) -> VectorStore:
    return request.getfixturevalue(request.param)


@pytest.fixture
def collection(store: VectorStore) -> Iterator[str]:
    """A fresh, empty collection, dropped after the test."""
    name = _unique_name()
    store.create_collection(name, dimension=DIM)
    yield name
    store.drop_collection(name)


def _unique_name() -> str:
    return f"contract_{uuid.uuid4().hex[:12]}"


# --- Helpers -------------------------------------------------------------------------------------


def _axis(index: int, *, tilt: float = 0.0) -> list[float]:
    """A unit vector along one axis, optionally tilted towards the next one."""
    vector = [0.0] * DIM
    vector[index % DIM] = 1.0
    vector[(index + 1) % DIM] = tilt
    norm = math.sqrt(1.0 + tilt * tilt)
    return [x / norm for x in vector]


def _chunk(
    chunk_id: str,
    *,
    source_id: int = 1,
    text: str = "plain words about nothing special",
    vector: Sequence[float] | None = None,
    chunk_hash: str | None = None,
    type: str = "text",
    metadata: dict | None = None,
) -> ChunkRecord:
    return ChunkRecord(
        id=chunk_id,
        vector=list(vector) if vector is not None else _axis(0, tilt=0.5),
        text=text,
        source_id=source_id,
        chunk_hash=chunk_hash or f"hash-{chunk_id}",
        type=type,
        metadata=metadata or {},
    )


def _source_chunks(source_id: int, count: int, *, type: str = "text") -> list[ChunkRecord]:
    return [
        _chunk(
            f"s{source_id}-c{n}",
            source_id=source_id,
            chunk_hash=f"s{source_id}-h{n}",
            type=type,
        )
        for n in range(count)
    ]


def _indexed_corpus(store: VectorStore, name: str) -> None:
    """Three sources; each chunk points along its own axis and has its own rare word."""
    store.upsert(
        name,
        [
            _chunk("a", source_id=1, vector=_axis(0), text="Install the zebrafish package"),
            _chunk("b", source_id=1, vector=_axis(1), text="Configure the walrus settings"),
            _chunk(
                "c",
                source_id=2,
                vector=_axis(2),
                text="Deploy with the narwhal tool",
                type="code",
            ),
            _chunk(
                "d",
                source_id=3,
                vector=_axis(3),
                text="Frequently asked: the okapi",
                type="faq",
            ),
        ],
    )


# --- Collections ---------------------------------------------------------------------------------


class TestCollections:
    def test_ping_succeeds(self, store: VectorStore) -> None:
        store.ping()

    def test_create_is_idempotent_and_keeps_data(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, [_chunk("a")])

        store.create_collection(collection, dimension=DIM)

        assert store.has_collection(collection)
        assert store.count(collection) == 1

    def test_drop_is_idempotent(self, store: VectorStore) -> None:
        name = _unique_name()
        store.create_collection(name, dimension=DIM)

        store.drop_collection(name)
        store.drop_collection(name)

        assert not store.has_collection(name)

    def test_rename_moves_chunks_and_keeps_them_searchable(self, store: VectorStore) -> None:
        old, new = _unique_name(), _unique_name()
        store.create_collection(old, dimension=DIM)
        _indexed_corpus(store, old)
        try:
            store.rename_collection(old, new)

            assert not store.has_collection(old)
            assert store.count(new) == 4
            assert store.chunk_hashes(new, source_id=1) == {"hash-a", "hash-b"}
            assert store.search_dense(new, _axis(2), limit=1)[0].id == "c"
            assert [hit.id for hit in store.search_bm25(new, "okapi", limit=5)] == ["d"]
        finally:
            store.drop_collection(old)
            store.drop_collection(new)

    def test_missing_collection_reads_as_empty(self, store: VectorStore) -> None:
        name = _unique_name()

        assert not store.has_collection(name)
        assert store.search_dense(name, _axis(0), limit=5) == []
        assert store.search_bm25(name, "zebrafish", limit=5) == []
        assert store.search_hybrid(name, _axis(0), "zebrafish", limit=5) == []
        assert store.count(name) == 0
        assert store.chunk_hashes(name, source_id=1) == set()
        assert store.delete(name, source_id=1) == 0

    def test_empty_collection_finds_nothing(self, store: VectorStore, collection: str) -> None:
        # A new guru asked before its first source is indexed: no rows, so no BM25 statistics.
        assert store.search_dense(collection, _axis(0), limit=5) == []
        assert store.search_bm25(collection, "zebrafish", limit=5) == []
        assert store.search_hybrid(collection, _axis(0), "zebrafish", limit=5) == []

    def test_a_collection_emptied_by_deletes_finds_nothing(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, _source_chunks(1, 2))
        store.delete(collection, source_id=1)
        assert store.search_bm25(collection, "zebrafish", limit=5) == []
        assert store.search_hybrid(collection, _axis(0), "zebrafish", limit=5) == []


# --- Writes --------------------------------------------------------------------------------------


class TestWrites:
    def test_upsert_then_count_all_and_per_source(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, _source_chunks(1, 3) + _source_chunks(2, 2))

        assert store.count(collection) == 5
        assert store.count(collection, source_id=1) == 3
        assert store.count(collection, source_id=2) == 2
        assert store.count(collection, source_id=99) == 0

    def test_upserting_an_id_again_replaces_the_row(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, [_chunk("a", text="first version")])
        store.upsert(collection, [_chunk("a", text="second version")])

        assert store.count(collection) == 1
        hits = store.search_dense(collection, _axis(0, tilt=0.5), limit=5)
        assert [(hit.id, hit.text) for hit in hits] == [("a", "second version")]

    def test_repeated_id_in_one_call_keeps_the_last(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(collection, [_chunk("a", text="older"), _chunk("a", text="newer")])

        assert store.count(collection) == 1
        assert store.search_dense(collection, _axis(0, tilt=0.5), limit=5)[0].text == "newer"

    def test_chunk_hashes_lists_one_source(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, _source_chunks(1, 3) + _source_chunks(2, 2))

        assert store.chunk_hashes(collection, source_id=1) == {
            "s1-h0",
            "s1-h1",
            "s1-h2",
        }
        assert store.chunk_hashes(collection, source_id=2) == {"s2-h0", "s2-h1"}
        assert store.chunk_hashes(collection, source_id=3) == set()

    def test_delete_a_whole_source(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, _source_chunks(1, 3) + _source_chunks(2, 2))

        assert store.delete(collection, source_id=1) == 3

        assert store.count(collection, source_id=1) == 0
        assert store.chunk_hashes(collection, source_id=2) == {"s2-h0", "s2-h1"}
        assert store.delete(collection, source_id=1) == 0

    def test_delete_only_some_hashes_of_a_source(self, store: VectorStore, collection: str) -> None:
        store.upsert(collection, _source_chunks(1, 3) + _source_chunks(2, 3))

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
        store.upsert(collection, _source_chunks(1, 2_600))
        doomed = [f"s1-h{n}" for n in range(0, 2_600, 2)]  # 1,300 hashes, every other chunk

        assert store.delete(collection, source_id=1, chunk_hashes=doomed) == 1_300

        remaining = store.chunk_hashes(collection, source_id=1)
        assert remaining == {f"s1-h{n}" for n in range(1, 2_600, 2)}

    @pytest.mark.slow
    def test_chunk_hashes_of_a_source_beyond_one_query_window(
        self, store: VectorStore, collection: str
    ) -> None:
        # Milvus returns at most 16,384 rows per query: a big source needs paging.
        store.upsert(collection, _source_chunks(7, 16_500))

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
                _chunk("long", text=long_text, vector=_axis(4)),
                _chunk("fits", text=fitting_text, vector=_axis(5)),
            ],
        )

        stored_long = store.search_dense(collection, _axis(4), limit=1)[0].text
        stored_fitting = store.search_dense(collection, _axis(5), limit=1)[0].text
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
        store.upsert(collection, [_chunk("a", metadata=metadata)])

        assert store.search_dense(collection, _axis(0, tilt=0.5), limit=1)[0].metadata == metadata


# --- Search --------------------------------------------------------------------------------------


class TestSearch:
    def test_dense_ranks_the_nearest_first(self, store: VectorStore, collection: str) -> None:
        _indexed_corpus(store, collection)

        hits = store.search_dense(collection, _axis(1, tilt=0.2), limit=4)

        assert [hit.id for hit in hits][:2] == ["b", "c"]
        assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
        assert len(hits) == 4

    def test_dense_scores_an_identical_vector_near_one(
        self, store: VectorStore, collection: str
    ) -> None:
        _indexed_corpus(store, collection)

        best = store.search_dense(collection, _axis(3), limit=1)[0]

        assert best.id == "d"
        assert best.score == pytest.approx(1.0, abs=1e-4)
        assert (best.source_id, best.chunk_hash, best.type) == (3, "hash-d", "faq")
        assert best.text == "Frequently asked: the okapi"

    def test_dense_respects_the_limit(self, store: VectorStore, collection: str) -> None:
        _indexed_corpus(store, collection)

        assert len(store.search_dense(collection, _axis(0), limit=2)) == 2

    def test_bm25_finds_the_chunk_with_the_rare_word(
        self, store: VectorStore, collection: str
    ) -> None:
        _indexed_corpus(store, collection)

        hits = store.search_bm25(collection, "where is the narwhal", limit=5)

        assert hits[0].id == "c"
        assert all(hit.score > 0 for hit in hits)

    def test_bm25_matches_another_form_of_a_word(self, store: VectorStore, collection: str) -> None:
        # The store is configured with English stemming: "runs" and "running" share a stem.
        store.upsert(
            collection,
            [
                _chunk("run", text="running quickly", vector=_axis(0)),
                _chunk("other", text="walking slowly", vector=_axis(1)),
            ],
        )

        assert [hit.id for hit in store.search_bm25(collection, "runs", limit=5)] == ["run"]

    def test_bm25_without_matching_words_finds_nothing(
        self, store: VectorStore, collection: str
    ) -> None:
        _indexed_corpus(store, collection)

        assert store.search_bm25(collection, "platypus", limit=5) == []
        assert store.search_bm25(collection, "   ", limit=5) == []

    def test_hybrid_returns_both_rankings_fused(self, store: VectorStore, collection: str) -> None:
        _indexed_corpus(store, collection)

        # the vector points at "a", the words at "c"
        hits = store.search_hybrid(collection, _axis(0), "narwhal", limit=4)

        assert {hit.id for hit in hits[:2]} == {"a", "c"}
        assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)

    def test_hybrid_ranks_first_the_chunk_both_rankings_agree_on(
        self, store: VectorStore, collection: str
    ) -> None:
        _indexed_corpus(store, collection)

        hits = store.search_hybrid(collection, _axis(2), "narwhal", limit=4)

        assert hits[0].id == "c"
        assert hits[0].score > hits[1].score

    def test_hybrid_without_words_follows_the_vector(
        self, store: VectorStore, collection: str
    ) -> None:
        _indexed_corpus(store, collection)

        hits = store.search_hybrid(collection, _axis(3), "  ", limit=2)

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
        _indexed_corpus(store, collection)
        every_word = "zebrafish walrus narwhal okapi"

        dense = store.search_dense(collection, _axis(0), limit=10, where=where)
        bm25 = store.search_bm25(collection, every_word, limit=10, where=where)
        hybrid = store.search_hybrid(collection, _axis(0), every_word, limit=10, where=where)

        assert {hit.id for hit in dense} == expected
        assert {hit.id for hit in bm25} == expected
        assert {hit.id for hit in hybrid} == expected

    def test_type_filter_takes_quotes_and_backslashes_literally(
        self, store: VectorStore, collection: str
    ) -> None:
        store.upsert(
            collection,
            [
                _chunk("quoted", type='a"b\\c', vector=_axis(0)),
                _chunk("other", type="a", vector=_axis(1)),
            ],
        )

        exact = SearchFilter(types=['a"b\\c'])
        injection = SearchFilter(types=['a" or type != "'])

        assert [
            hit.id for hit in store.search_dense(collection, _axis(0), limit=5, where=exact)
        ] == ["quoted"]
        assert store.search_dense(collection, _axis(0), limit=5, where=injection) == []

    def test_concurrent_searches_from_threads(self, store: VectorStore, collection: str) -> None:
        _indexed_corpus(store, collection)

        def nearest(axis: int) -> str:
            return store.search_dense(collection, _axis(axis), limit=1)[0].id

        with ThreadPoolExecutor(max_workers=8) as pool:
            found = list(pool.map(nearest, [0, 1, 2, 3] * 8))

        assert found == ["a", "b", "c", "d"] * 8


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
    name = _unique_name()
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
    name = _unique_name()
    store.create_collection(name, dimension=DIM)
    try:
        store.upsert(name, [_chunk("run", text="running quickly")])

        assert [hit.id for hit in store.search_bm25(name, "runs", limit=5)] == expected
        assert [hit.id for hit in store.search_bm25(name, "running", limit=5)] == ["run"]
    finally:
        store.drop_collection(name)
        store.close()


def test_milvus_collection_keeps_the_analyzer_it_was_created_with(milvus_server: str) -> None:
    standard = MilvusVectorStore(uri=milvus_server, bm25_analyzer="standard")
    english = MilvusVectorStore(uri=milvus_server, bm25_analyzer="english")
    old, new = _unique_name(), _unique_name()
    standard.create_collection(old, dimension=DIM)
    try:
        standard.upsert(old, [_chunk("run", text="running quickly")])

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
        milvus_store.upsert(_unique_name(), [_chunk("a", type="t" * 17)])

    assert caught.value.code == ErrorCode.INVALID_INPUT


def test_milvus_upsert_into_a_missing_collection_fails(
    milvus_store: MilvusVectorStore,
) -> None:
    with pytest.raises(DomainError) as caught:
        milvus_store.upsert(_unique_name(), [_chunk("a")])

    assert caught.value.code == ErrorCode.NOT_FOUND


# --- Memory specifics ----------------------------------------------------------------------------


@pytest.mark.fast
@pytest.mark.parametrize(("analyzer", "expected"), [("english", ["run"]), ("standard", [])])
def test_memory_bm25_analyzer_decides_whether_word_forms_match(
    analyzer: str, expected: list[str]
) -> None:
    store = MemoryVectorStore(bm25_analyzer=analyzer)
    store.create_collection("c", dimension=DIM)
    store.upsert("c", [_chunk("run", text="running quickly")])

    assert [hit.id for hit in store.search_bm25("c", "runs", limit=5)] == expected
    assert [hit.id for hit in store.search_bm25("c", "running", limit=5)] == ["run"]


@pytest.mark.fast
def test_memory_bm25_prefers_the_rarer_word_and_the_shorter_text() -> None:
    store = MemoryVectorStore()
    store.create_collection("c", dimension=DIM)
    store.upsert(
        "c",
        [
            _chunk("common", text="install package install"),
            _chunk("rare", text="install okapi"),
            _chunk("long", text="okapi " + "filler words here " * 20),
            _chunk("other", text="unrelated text"),
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
        store.upsert("missing", [_chunk("a")])
    with pytest.raises(DomainError) as long_type:
        store.upsert("c", [_chunk("a", type="t" * 17)])
    with pytest.raises(DomainError) as short_vector:
        store.upsert("c", [_chunk("a", vector=[1.0, 0.0])])

    assert other_dimension.value.code == ErrorCode.CONFLICT
    assert missing.value.code == ErrorCode.NOT_FOUND
    assert long_type.value.code == ErrorCode.INVALID_INPUT
    assert short_vector.value.code == ErrorCode.INVALID_INPUT
    assert store.count("c") == 0
