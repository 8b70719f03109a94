"""The capacity section's shared-layout part (VECTOR_LAYOUT=shared): what an empty guru and a
guru with chunks cost in Milvus memory when gurus share one collection (against collections of
their own, measured on the same server), and how a small guru's searches fare among many gurus'
chunks against alone.

Same synthetic corpus as `capacity_search.py`; a Milvus Lite server of its own."""

import time
from typing import Any

from openguru.providers.vectorstore.milvus import MilvusVectorStore
from openguru.providers.vectorstore.milvus_shared import SharedMilvusVectorStore

from benchmarks.capacity_search import (
    DIMENSION,
    INSERT_BATCH,
    WARMUP_QUERIES,
    Log,
    chunk_records,
    latency_summary,
    search_latencies,
    timed_searches,
)
from benchmarks.capacity_worker import proc_status_mb
from benchmarks.stats import per_second, ratio

SMALL = "small"
PROGRESS_EVERY = 100


def _fill(store: MilvusVectorStore, name: str, corpus: Any, start: int, stop: int) -> None:
    store.create_collection(name, dimension=DIMENSION)
    for first in range(start, stop, INSERT_BATCH):
        store.upsert(name, chunk_records(corpus, first, min(first + INSERT_BATCH, stop)))


def _span(i: int, small_chunks: int, chunks_per_guru: int) -> tuple[int, int]:
    """The corpus rows of the i-th guru beside the small one."""
    first = small_chunks + i * chunks_per_guru
    return first, first + chunks_per_guru


def _mb_each(pid: int, count: int, make: Any, log: Log | None = None) -> float | None:
    """The server's resident memory growth per item over `count` calls of `make(i)`."""
    if count <= 0:
        return None
    before = proc_status_mb("VmRSS", pid)
    started = time.perf_counter()
    for i in range(count):
        make(i)
        if log is not None and (i + 1) % PROGRESS_EVERY == 0:
            log(f"capacity: shared, {i + 1} of {count} in {time.perf_counter() - started:.0f} s")
    return round((proc_status_mb("VmRSS", pid) - before) / count, 2)


def side_by_side(
    targets: dict[str, tuple[MilvusVectorStore, str]], corpus: Any, queries: int
) -> dict[str, dict[str, float | None]]:
    """Each target's dense and hybrid p50/p95, their searches interleaved query by query: on a
    shared machine both see the same load, so their ratio means something."""
    vectors = [vector.tolist() for vector in corpus.query_vectors]
    for store, name in targets.values():
        for i in range(WARMUP_QUERIES):
            store.search_dense(name, vectors[i % len(vectors)], limit=10)
    times: dict[str, tuple[list[float], list[float]]] = {label: ([], []) for label in targets}
    for i in range(queries):
        q = i % len(vectors)
        for label, (store, name) in targets.items():
            dense, hybrid = timed_searches(store, name, vectors[q], corpus, q)
            times[label][0].append(dense)
            times[label][1].append(hybrid)
    return {label: latency_summary(*measured) for label, measured in times.items()}


def measure_shared(
    *,
    uri: str,
    pid: int,
    corpus: Any,
    gurus: int,
    chunks_per_guru: int,
    small_chunks: int,
    empty_gurus: int,
    own_collections: int,
    queries: int,
    log: Log,
) -> dict[str, Any]:
    """A small guru alone in its shared collection, searched; `empty_gurus` empty gurus weighed;
    `gurus` gurus of `chunks_per_guru` chunks added beside it, weighed, and the small guru
    searched again, interleaved with searches of its twin alone in a shared collection of its
    own on the same server; then, for comparison, `own_collections` gurus of as many chunks in
    collections of their own (the per-guru layout), empty and filled, weighed."""
    store = SharedMilvusVectorStore(uri=uri, timeout_seconds=600, collection_prefix="bench_")
    twin = SharedMilvusVectorStore(uri=uri, timeout_seconds=600, collection_prefix="alone_")
    per_guru = MilvusVectorStore(uri=uri, timeout_seconds=600)
    try:
        _fill(store, SMALL, corpus, 0, small_chunks)
        _fill(twin, SMALL, corpus, 0, small_chunks)
        before = search_latencies(store, corpus, [SMALL], queries)
        log(f"capacity: shared, small guru alone {before}")
        empty_mb = _mb_each(
            pid, empty_gurus, lambda i: store.create_collection(f"e{i}", dimension=DIMENSION)
        )
        started = time.perf_counter()
        guru_mb = _mb_each(
            pid,
            gurus,
            lambda i: _fill(store, f"g{i}", corpus, *_span(i, small_chunks, chunks_per_guru)),
            log,
        )
        seconds = time.perf_counter() - started
        side = side_by_side({"alone": (twin, SMALL), "among": (store, SMALL)}, corpus, queries)
        alone, among = side["alone"], side["among"]
        log(f"capacity: shared, small guru among {gurus} {among}, its twin alone {alone}")
        own_empty_mb = _mb_each(
            pid, own_collections, lambda i: per_guru.create_collection(f"o{i}", dimension=DIMENSION)
        )
        own_mb = _mb_each(
            pid,
            own_collections,
            lambda i: _fill(per_guru, f"o{i}", corpus, *_span(i, small_chunks, chunks_per_guru)),
        )
        log(
            f"capacity: MB per empty guru: shared {empty_mb}, own collection {own_empty_mb}; "
            f"per guru of {chunks_per_guru} chunks: shared {guru_mb}, own collection {own_mb}"
        )
    finally:
        store.close()
        twin.close()
        per_guru.close()
    return {
        "gurus": gurus,
        "chunks_per_guru": chunks_per_guru,
        "small_guru_chunks": small_chunks,
        "server_rss_mb_per_empty_guru": empty_mb,
        "server_rss_mb_per_guru_with_chunks": guru_mb,
        "own_collections_compared": own_collections,
        "server_rss_mb_per_empty_own_collection": own_empty_mb,
        "server_rss_mb_per_own_collection_with_chunks": own_mb,
        "insert_rows_per_s": per_second(gurus * chunks_per_guru, seconds, 0),
        "small_guru_alone_before_the_others": before,
        "small_guru_alone": alone,  # its twin, searched in turn with it among the others
        "small_guru_among_gurus": among,
        "dense_p95_among_vs_alone": ratio(among["dense_p95_ms"], alone["dense_p95_ms"], 2),
        "hybrid_p95_among_vs_alone": ratio(among["hybrid_p95_ms"], alone["hybrid_p95_ms"], 2),
        "server_rss_mb": proc_status_mb("VmRSS", pid),
        "server_peak_rss_mb": proc_status_mb("VmHWM", pid),
        "partition_key": "not on Milvus Lite (no partitions): the guru field is a filtered index",
    }
