"""The search section's recall part: dense recall@10 of the index the product creates (AUTOINDEX,
COSINE, default search parameters, through `MilvusVectorStore`) against exact numpy brute force,
in one guru's collection grown through rising sizes towards a million chunks.

Synthetic clustered 384-d vectors (`bench_vectorstore.synthetic_corpus`, one cluster per ~250
chunks of the largest size, so fewer chunks per cluster at the smaller sizes): on iid random
vectors approximate indexes score far lower, and embeddings of real text are clustered. How
tight the clusters are moves the figure: recall counts near-ties among a cluster's members. At
each size the collection is flushed and its index caught up before searching, so the figure is
the index's, not a brute-force growing segment's.
Before each size the insert time is projected from the last rate: the curve stops where the
next size would overrun the time budget (inserting and searching, from the first insert), or
once the server holds its memory share."""

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from openguru.providers.vectorstore.base import SearchFilter, SearchHit
from openguru.providers.vectorstore.milvus import MilvusVectorStore
from pymilvus import MilvusClient

from benchmarks.capacity_search import (
    DIMENSION,
    TOP_K,
    Log,
    chunk_records,
    lite_server,
    memory_available_mb,
)
from benchmarks.capacity_worker import proc_status_mb
from benchmarks.processes import ChildProcesses
from benchmarks.search import SearchPlan, load_bench_vectorstore
from benchmarks.stats import per_second

NAME = "recall"
INSERT_BATCH = 5_000
# Inserts slow as the collection grows: the next size's time is projected at the last rate
# slowed by this factor, plus the flush and index wait.
PROJECTION_SLOWDOWN = 1.3
INDEX_WAIT_S = 900.0


def run_recall(
    *, plan: SearchPlan, root: Path, processes: ChildProcesses, log: Log
) -> dict[str, Any]:
    bench = load_bench_vectorstore()
    largest = max(plan.recall_sizes)
    log(f"search: recall curve, {largest} synthetic chunks drawn")
    corpus = bench.synthetic_corpus(
        chunks=largest, dim=DIMENSION, queries=plan.recall_queries, seed=0
    )
    started = time.perf_counter()  # the budget is for the store's work, not drawing the corpus
    # As `synthetic_corpus` draws them: a smaller size has as many clusters, fewer chunks in each.
    clusters = max(8, largest // 250)
    rows: list[dict[str, Any]] = []
    stopped: str | None = None
    with lite_server(processes, root / "recall.db", log) as (uri, pid):
        cap_mb = proc_status_mb("VmRSS", pid) + plan.recall_memory_share * memory_available_mb()
        store = MilvusVectorStore(uri=uri, timeout_seconds=600)
        client = MilvusClient(uri=uri)
        try:
            store.create_collection(NAME, dimension=DIMENSION)
            done, rate = 0, 0.0
            for size in plan.recall_sizes:
                stopped = _why_stop(plan, started, size - done, rate, pid, cap_mb)
                if stopped:
                    log(f"search: recall curve {stopped}")
                    break
                inserting = time.perf_counter()
                for first in range(done, size, INSERT_BATCH):
                    batch = chunk_records(corpus, first, min(first + INSERT_BATCH, size))
                    store.upsert(NAME, batch)
                rate = per_second(size - done, time.perf_counter() - inserting, 0) or 0.0
                done = size
                row = {
                    "chunks": size,
                    "chunks_per_cluster": size // clusters,
                    "insert_rows_per_s": rate,
                }
                row |= _indexed(client, log)
                row |= _recall_rows(bench, store, _prefix(corpus, size))
                row |= {
                    "server_rss_mb": proc_status_mb("VmRSS", pid),
                    "elapsed_s": round(time.perf_counter() - started, 1),
                }
                log(f"search: recall {row}")
                rows.append(row)
        finally:
            client.close()
            store.close()
        peak = proc_status_mb("VmHWM", pid)
    return {
        "rows": rows,
        "stopped": stopped,
        "budget_s": plan.recall_budget_s,
        "queries": plan.recall_queries,
        "server_peak_rss_mb": peak,
        "index": "AUTOINDEX, metric COSINE, default search params (as the product creates it)",
        "data": f"synthetic clustered 384-d vectors in {clusters} clusters; each size is a "
        "prefix of the same corpus, so a smaller size has fewer chunks per cluster",
    }


def _why_stop(
    plan: SearchPlan, started: float, rows: int, rate: float, pid: int, cap_mb: float
) -> str | None:
    if proc_status_mb("VmRSS", pid) > cap_mb:
        return f"stopped: the server holds over {cap_mb:.0f} MB"
    if rate <= 0:
        return None
    projected = rows / rate * PROJECTION_SLOWDOWN
    elapsed = time.perf_counter() - started
    if elapsed + projected > plan.recall_budget_s:
        return (
            f"stopped: {rows} more rows at {rate:.0f} rows/s would take ~{projected:.0f} s, "
            f"{elapsed:.0f} s of the {plan.recall_budget_s:.0f} s budget spent"
        )
    return None


def _indexed(client: MilvusClient, log: Log) -> dict[str, Any]:
    """Flush the collection and wait for its vector index to cover every row."""
    started = time.perf_counter()
    client.flush(NAME)
    flushed = time.perf_counter()
    index: dict[str, Any] = {}
    while time.perf_counter() - flushed < INDEX_WAIT_S:
        index = client.describe_index(NAME, "vector")
        if not index.get("pending_index_rows"):
            break
        time.sleep(2)
    else:
        log(f"search: recall index still pending after {INDEX_WAIT_S:.0f} s: {index}")
    return {
        "flush_s": round(flushed - started, 1),
        "index_wait_s": round(time.perf_counter() - flushed, 1),
        "index_type": index.get("index_type"),
        "indexed_rows": index.get("indexed_rows"),
        "pending_index_rows": index.get("pending_index_rows"),
    }


def _prefix(corpus: Any, size: int) -> Any:
    return replace(
        corpus,
        vectors=corpus.vectors[:size],
        texts=corpus.texts[:size],
        source_ids=corpus.source_ids[:size],
    )


def _recall_rows(bench: Any, store: MilvusVectorStore, corpus: Any) -> dict[str, Any]:
    """Dense recall@10 and latency, unfiltered and filtered to half the sources."""
    half = SearchFilter(source_ids=list(range(1, bench.SOURCES // 2 + 1)))
    allowed = np.isin(corpus.source_ids, half.source_ids or [])

    def dense(i: int, where: SearchFilter | None = None) -> list[SearchHit]:
        return store.search_dense(NAME, corpus.query_vectors[i].tolist(), limit=TOP_K, where=where)

    result: dict[str, Any] = {}
    for mode, search, mask in (
        ("dense", dense, None),
        ("dense_filter", lambda i: dense(i, half), allowed),
    ):
        row = bench.dense_row(mode, search, corpus, mask=mask)
        result |= {
            f"{mode}_recall@10": row["recall@10_vs_exact"],
            f"{mode}_p50_ms": row["p50_ms"],
            f"{mode}_p95_ms": row["p95_ms"],
            f"{mode}_exact_p50_ms": row["exact_p50_ms"],
        }
    return result
