"""The capacity section's search half: Milvus Lite as the store grows, in one collection and
spread over many gurus' collections (each guru has its own), with the server's resident memory.

Synthetic clustered 384-d vectors and ~120-word texts (`bench_vectorstore.synthetic_corpus`):
embedding 100k real chunks would take most of an hour here, and search cost depends on the
vectors' number and dimension, not on what they mean. Each part runs on a Milvus Lite server of
its own, so one part's memory does not count in the other's."""

import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from openguru.providers.vectorstore.base import ChunkRecord
from openguru.providers.vectorstore.lite_server import free_port, start_lite_server
from openguru.providers.vectorstore.milvus import MilvusVectorStore

from benchmarks.capacity_worker import proc_status_mb
from benchmarks.processes import ChildProcesses
from benchmarks.stats import p50_p95, per_second

Log = Callable[[str], None]
TOP_K = 10
INSERT_BATCH = 2_000
WARMUP_QUERIES = 5
DIMENSION = 384


def mb_per_100k_chunks(*, baseline_mb: float, rss_mb: float, chunks: int) -> float | None:
    """The server's memory growth per 100,000 chunks, from its empty size to `rss_mb`."""
    if chunks <= 0:
        return None
    return round((rss_mb - baseline_mb) * 100_000 / chunks, 1)


def mb_per_guru(levels: Sequence[tuple[int, float]]) -> float | None:
    """Memory each added guru's collection costs: the slope from the first (gurus, rss_mb) level
    to the last."""
    if len(levels) < 2 or levels[-1][0] == levels[0][0]:
        return None
    (first, first_mb), (last, last_mb) = levels[0], levels[-1]
    return round((last_mb - first_mb) / (last - first), 1)


def memory_available_mb(meminfo: Path = Path("/proc/meminfo")) -> float:
    for line in meminfo.read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) / 1024
    return 0.0


@contextmanager
def lite_server(processes: ChildProcesses, data_file: Path, log: Log) -> Iterator[tuple[str, int]]:
    """A fresh Milvus Lite server: (uri, pid); stopped on the way out."""
    shutil.rmtree(data_file.parent, ignore_errors=True)
    port = free_port()
    process = start_lite_server(data_file=data_file, port=port)
    processes.adopt(f"Milvus Lite {data_file.name}", process)
    log(f"capacity: Milvus Lite on 127.0.0.1:{port} ({data_file})")
    try:
        yield f"http://127.0.0.1:{port}", process.pid
    finally:
        processes.stop(process)


def chunk_records(corpus: Any, start: int, stop: int) -> list[ChunkRecord]:
    return [
        ChunkRecord(
            id=f"c{i}",
            vector=corpus.vectors[i].tolist(),
            text=corpus.texts[i],
            source_id=int(corpus.source_ids[i]),
            chunk_hash=f"h{i}",
            type="text",
        )
        for i in range(start, stop)
    ]


def _insert(store: MilvusVectorStore, name: str, corpus: Any, start: int, stop: int) -> None:
    for first in range(start, stop, INSERT_BATCH):
        store.upsert(name, chunk_records(corpus, first, min(first + INSERT_BATCH, stop)))


def search_latencies(
    store: MilvusVectorStore, corpus: Any, collections: Sequence[str], queries: int
) -> dict[str, float | None]:
    """Dense and hybrid p50/p95 over `queries` searches spread round-robin over `collections`,
    after one untimed search in each (a loaded collection's first search warms its caches)."""
    vectors = [vector.tolist() for vector in corpus.query_vectors]
    for i, name in enumerate(list(collections) + list(collections[:WARMUP_QUERIES])):
        store.search_dense(name, vectors[i % len(vectors)], limit=TOP_K)
    dense: list[float] = []
    hybrid: list[float] = []
    for i in range(queries):
        q = i % len(vectors)
        timed = timed_searches(store, collections[i % len(collections)], vectors[q], corpus, q)
        dense.append(timed[0])
        hybrid.append(timed[1])
    return latency_summary(dense, hybrid)


def timed_searches(
    store: MilvusVectorStore, name: str, vector: list[float], corpus: Any, q: int
) -> tuple[float, float]:
    """One dense and one hybrid search for query `q`: their milliseconds."""
    started = time.perf_counter()
    store.search_dense(name, vector, limit=TOP_K)
    middle = time.perf_counter()
    store.search_hybrid(name, vector, corpus.query_texts[q], limit=TOP_K)
    return (middle - started) * 1000, (time.perf_counter() - middle) * 1000


def latency_summary(dense: Sequence[float], hybrid: Sequence[float]) -> dict[str, float | None]:
    dense_p50, dense_p95 = p50_p95(list(dense), 2)
    hybrid_p50, hybrid_p95 = p50_p95(list(hybrid), 2)
    return {
        "dense_p50_ms": dense_p50,
        "dense_p95_ms": dense_p95,
        "hybrid_p50_ms": hybrid_p50,
        "hybrid_p95_ms": hybrid_p95,
    }


def measure_growth(
    *, uri: str, pid: int, corpus: Any, sizes: Sequence[int], queries: int, share: float, log: Log
) -> dict[str, Any]:
    """One collection filled to each size in turn; searched and weighed at each."""
    store = MilvusVectorStore(uri=uri, timeout_seconds=600)
    cap_mb = proc_status_mb("VmRSS", pid) + share * memory_available_mb()
    rows: list[dict[str, Any]] = []
    stopped: str | None = None
    baseline, done = 0.0, 0
    try:
        store.create_collection("growth", dimension=DIMENSION)
        baseline = proc_status_mb("VmRSS", pid)
        for size in sizes:
            if proc_status_mb("VmRSS", pid) > cap_mb:
                stopped = f"stopped before {size} chunks: the server holds over {cap_mb:.0f} MB"
                break
            started = time.perf_counter()
            _insert(store, "growth", corpus, done, size)
            rate = per_second(size - done, time.perf_counter() - started, 0)
            done = size
            row: dict[str, Any] = {"chunks": size}
            row |= search_latencies(store, corpus, ["growth"], queries)
            row |= {"server_rss_mb": proc_status_mb("VmRSS", pid), "insert_rows_per_s": rate}
            log(f"capacity: one collection {row}")
            rows.append(row)
    finally:
        store.close()
    last = rows[-1] if rows else None
    return {
        "rows": rows,
        "server_rss_empty_mb": baseline,
        "server_rss_mb_per_100k_chunks": (
            mb_per_100k_chunks(
                baseline_mb=baseline, rss_mb=last["server_rss_mb"], chunks=last["chunks"]
            )
            if last
            else None
        ),
        "server_peak_rss_mb": proc_status_mb("VmHWM", pid),
        "stopped": stopped,
    }


def measure_gurus(
    *,
    uri: str,
    pid: int,
    corpus: Any,
    levels: Sequence[int],
    chunks_per_guru: int,
    queries: int,
    share: float,
    log: Log,
) -> dict[str, Any]:
    """Gurus' collections of `chunks_per_guru` chunks each, added up to each level in turn;
    searches go round-robin over all of them."""
    store = MilvusVectorStore(uri=uri, timeout_seconds=600)
    cap_mb = proc_status_mb("VmRSS", pid) + share * memory_available_mb()
    baseline = proc_status_mb("VmRSS", pid)
    names: list[str] = []
    rows: list[dict[str, Any]] = []
    stopped: str | None = None
    try:
        for level in levels:
            started = time.perf_counter()
            while len(names) < level and stopped is None:
                if proc_status_mb("VmRSS", pid) > cap_mb:
                    stopped = (
                        f"stopped at {len(names)} gurus: the server holds over {cap_mb:.0f} MB"
                    )
                    break
                name = f"guru_{len(names):04d}"
                store.create_collection(name, dimension=DIMENSION)
                first = len(names) * chunks_per_guru
                _insert(store, name, corpus, first, first + chunks_per_guru)
                names.append(name)
            if stopped is not None and len(names) < level:
                log(f"capacity: {stopped}")
                break
            added = level - (rows[-1]["gurus"] if rows else 0)
            seconds = time.perf_counter() - started
            row: dict[str, Any] = {"gurus": level, "chunks": level * chunks_per_guru}
            row |= search_latencies(store, corpus, names, queries)
            row |= {
                "server_rss_mb": proc_status_mb("VmRSS", pid),
                "seconds_per_new_guru": round(seconds / added, 2) if added > 0 else None,
            }
            log(f"capacity: gurus {row}")
            rows.append(row)
    finally:
        store.close()
    return {
        "rows": rows,
        "chunks_per_guru": chunks_per_guru,
        "server_rss_empty_mb": baseline,
        "server_rss_mb_per_guru": mb_per_guru([(r["gurus"], r["server_rss_mb"]) for r in rows]),
        "server_peak_rss_mb": proc_status_mb("VmHWM", pid),
        "stopped": stopped,
    }
