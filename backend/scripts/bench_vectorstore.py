"""Vector store search benchmark: latency of dense, BM25 and hybrid search, recall of dense search
against exact brute force, on synthetic clustered data.

    python backend/scripts/bench_vectorstore.py --chunks 10000 100000

starts a throwaway Milvus Lite server (or uses --uri) and prints one JSON object per line.
`bench_search` is the reusable part: it takes any VectorStore.
"""

import argparse
import json
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

BACKEND = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BACKEND))

from openguru.providers.vectorstore.base import (  # noqa: E402
    ChunkRecord,
    SearchFilter,
    SearchHit,
    VectorStore,
)

TOP_K = 10
SOURCES = 20  # chunks are spread over this many sources; filtered search keeps half of them
WORDS_PER_CHUNK = 120  # about the size of a real chunk, which drives BM25's insert cost
INSERT_BATCH = 2_000
WARMUP_QUERIES = 5


@dataclass(frozen=True)
class Corpus:
    vectors: np.ndarray  # (chunks, dim) float32, unit length
    texts: list[str]
    source_ids: np.ndarray  # (chunks,) int
    query_vectors: np.ndarray  # (queries, dim)
    query_texts: list[str]


def bench_search(
    store: VectorStore, *, chunks: int, dim: int = 384, queries: int = 200, seed: int = 0
) -> list[dict[str, Any]]:
    """Index `chunks` synthetic chunks into a throwaway collection and time `queries` searches
    of each kind. Every row has chunks, mode, p50_ms, p95_ms, recall@10_vs_exact, exact_p50_ms
    (the last two only where an exact answer exists) and insert_rows_per_s."""
    corpus = synthetic_corpus(chunks=chunks, dim=dim, queries=queries, seed=seed)
    name = f"bench_{uuid.uuid4().hex[:12]}"
    store.create_collection(name, dimension=dim)
    try:
        insert_rate = _index(store, name, corpus)
        rows = _measure_all(store, name, corpus)
    finally:
        store.drop_collection(name)
    for row in rows:
        row.update(chunks=chunks, insert_rows_per_s=round(insert_rate, 1))
    return rows


# -- synthetic data -------------------------------------------------------------------------------


def synthetic_corpus(*, chunks: int, dim: int, queries: int, seed: int) -> Corpus:
    """Vectors in Gaussian clusters (as embeddings of topical documents are), texts drawn from
    a Zipf-like vocabulary with words specific to each cluster, so BM25 has topics to find."""
    rng = np.random.default_rng(seed)
    clusters = max(8, chunks // 250)
    centers = _unit(rng.standard_normal((clusters, dim)).astype(np.float32))
    labels = rng.integers(0, clusters, size=chunks)
    vectors = _unit(centers[labels] + 0.35 * _noise(rng, chunks, dim))
    query_labels = rng.integers(0, clusters, size=queries)
    query_vectors = _unit(centers[query_labels] + 0.35 * _noise(rng, queries, dim))
    words = _Vocabulary(rng, clusters)
    return Corpus(
        vectors=vectors,
        texts=[words.chunk_text(int(label)) for label in labels],
        source_ids=rng.integers(1, SOURCES + 1, size=chunks),
        query_vectors=query_vectors,
        query_texts=[words.query_text(int(label)) for label in query_labels],
    )


class _Vocabulary:
    COMMON = 5_000
    PER_TOPIC = 40

    def __init__(self, rng: np.random.Generator, topics: int) -> None:
        self._rng = rng
        self._topics = topics
        weights = 1.0 / np.arange(1, self.COMMON + 1)
        self._common_weights = weights / weights.sum()

    def chunk_text(self, topic: int) -> str:
        common = self._rng.choice(self.COMMON, size=WORDS_PER_CHUNK, p=self._common_weights)
        topical = self._rng.integers(0, self.PER_TOPIC, size=WORDS_PER_CHUNK // 6)
        words = [f"w{n}" for n in common] + [f"t{topic}x{n}" for n in topical]
        self._rng.shuffle(words)
        return " ".join(words)

    def query_text(self, topic: int) -> str:
        common = self._rng.choice(self.COMMON, size=4, p=self._common_weights)
        topical = self._rng.integers(0, self.PER_TOPIC, size=2)
        return " ".join([f"w{n}" for n in common] + [f"t{topic}x{n}" for n in topical])


def _noise(rng: np.random.Generator, rows: int, dim: int) -> np.ndarray:
    return rng.standard_normal((rows, dim)).astype(np.float32) / np.sqrt(dim) * 4


def _unit(matrix: np.ndarray) -> np.ndarray:
    return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)


# -- indexing and timing --------------------------------------------------------------------------


def _index(store: VectorStore, name: str, corpus: Corpus) -> float:
    """Upsert the corpus; returns rows per second."""
    started = time.perf_counter()
    for start in range(0, len(corpus.texts), INSERT_BATCH):
        stop = min(start + INSERT_BATCH, len(corpus.texts))
        store.upsert(name, [_record(corpus, i) for i in range(start, stop)])
    return len(corpus.texts) / (time.perf_counter() - started)


def _record(corpus: Corpus, i: int) -> ChunkRecord:
    return ChunkRecord(
        id=f"c{i}",
        vector=corpus.vectors[i].tolist(),
        text=corpus.texts[i],
        source_id=int(corpus.source_ids[i]),
        chunk_hash=f"h{i}",
        type="text",
    )


def _measure_all(store: VectorStore, name: str, corpus: Corpus) -> list[dict[str, Any]]:
    half = SearchFilter(source_ids=list(range(1, SOURCES // 2 + 1)))
    allowed = np.isin(corpus.source_ids, half.source_ids or [])
    queries = range(len(corpus.query_texts))

    def dense(i: int, where: SearchFilter | None = None) -> list[SearchHit]:
        return store.search_dense(name, corpus.query_vectors[i].tolist(), limit=TOP_K, where=where)

    return [
        dense_row("dense", dense, corpus, mask=None),
        dense_row("dense+filter", lambda i: dense(i, half), corpus, mask=allowed),
        _row(
            "bm25",
            _latencies(
                lambda i: store.search_bm25(name, corpus.query_texts[i], limit=TOP_K), queries
            ),
        ),
        _row(
            "hybrid",
            _latencies(
                lambda i: store.search_hybrid(
                    name, corpus.query_vectors[i].tolist(), corpus.query_texts[i], limit=TOP_K
                ),
                queries,
            ),
        ),
    ]


def dense_row(
    mode: str,
    search: Callable[[int], list[SearchHit]],
    corpus: Corpus,
    *,
    mask: np.ndarray | None,
) -> dict[str, Any]:
    queries = range(len(corpus.query_texts))
    found: dict[int, list[SearchHit]] = {}

    def search_and_keep(i: int) -> None:
        found[i] = search(i)

    latencies = _latencies(search_and_keep, queries)
    exact_latencies, exact = _exact_top_k(corpus, mask)
    recalls = [
        len({hit.id for hit in found[i]} & {f"c{j}" for j in exact[i]}) / len(exact[i])
        for i in queries
    ]
    return _row(mode, latencies, recall=float(np.mean(recalls)), exact=exact_latencies)


def _exact_top_k(corpus: Corpus, mask: np.ndarray | None) -> tuple[list[float], list[np.ndarray]]:
    """Brute-force cosine top-k with numpy, one query at a time (as a search would run)."""
    vectors = corpus.vectors if mask is None else corpus.vectors[mask]
    positions = np.arange(len(corpus.vectors)) if mask is None else np.flatnonzero(mask)
    latencies, results = [], []
    for query in corpus.query_vectors:
        started = time.perf_counter()
        scores = vectors @ query
        top = np.argpartition(-scores, TOP_K)[:TOP_K]
        top = top[np.argsort(-scores[top])]
        latencies.append((time.perf_counter() - started) * 1000)
        results.append(positions[top])
    return latencies, results


def _latencies(search: Callable[[int], Any], queries: range) -> list[float]:
    for i in list(queries)[:WARMUP_QUERIES]:
        search(i)
    latencies = []
    for i in queries:
        started = time.perf_counter()
        search(i)
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies


def _row(
    mode: str,
    latencies: list[float],
    *,
    recall: float | None = None,
    exact: list[float] | None = None,
) -> dict[str, Any]:
    return {
        "mode": mode,
        "p50_ms": round(float(np.percentile(latencies, 50)), 2),
        "p95_ms": round(float(np.percentile(latencies, 95)), 2),
        "recall@10_vs_exact": None if recall is None else round(recall, 4),
        "exact_p50_ms": None if exact is None else round(float(np.percentile(exact, 50)), 2),
    }


# -- command line ---------------------------------------------------------------------------------


@contextmanager
def _lite_server() -> Iterator[str]:
    from openguru.providers.vectorstore.lite_server import free_port, start_lite_server

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-milvus-") as data_dir:
        process = start_lite_server(data_file=Path(data_dir) / "bench.db", port=port)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uri", help="a running Milvus; default: a throwaway Milvus Lite")
    parser.add_argument("--chunks", type=int, nargs="+", default=[10_000])
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()

    from openguru.providers.vectorstore.milvus import MilvusVectorStore

    with _lite_server() if args.uri is None else _given(args.uri) as uri:
        store = MilvusVectorStore(uri=uri, timeout_seconds=300)
        for chunks in args.chunks:
            for row in bench_search(store, chunks=chunks, dim=args.dim, queries=args.queries):
                print(json.dumps(row), flush=True)
        store.close()


@contextmanager
def _given(uri: str) -> Iterator[str]:
    yield uri


if __name__ == "__main__":
    main()
