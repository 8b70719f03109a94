"""Section 11 — capacity: the figures behind docs/scaling.md's "what to scale when".

1. Embedding where it runs: the same chunks embedded in the worker and through an embedding
   service in another process (`openai` and `tei` wires, the same model): chunks/s and the
   worker's CPU seconds per 1,000 chunks. Then one worker process indexes a text source with the
   model in-process and one with the service: its CPU and resident memory after the ingestion.
2. Search as the store grows: Milvus Lite dense and hybrid p50/p95 in one collection at rising
   sizes, then over many gurus' collections; the server's resident memory at each step.
3. The shared layout (one collection for every guru): Milvus memory per additional empty guru
   (and per empty collection of its own, for comparison), and a small guru's search p95 among
   many gurus' chunks against alone.

The parts are in `capacity_embedding.py`, `capacity_search.py` and `capacity_shared.py`; this
module plans and sums up."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchmarks.paths import BenchPaths
from benchmarks.processes import ChildProcesses
from benchmarks.stats import ratio

Log = Callable[[str], None]
# The section's parts, each runnable on its own (`--capacity-parts`): embedding where it runs
# (with the worker processes), search as one collection and many gurus' collections grow, and the
# shared layout.
CAPACITY_PARTS = ("embedding", "search", "shared")
SYNTHETIC_NOTE = (
    "search: synthetic clustered 384-d vectors with ~120-word texts, one Milvus Lite server per "
    "part; embedding: pydoc_data.topics (the Python language reference) chunked by the indexer"
)


@dataclass(frozen=True)
class CapacityPlan:
    embed_chunks: int = 1_000  # chunk texts each embedder embeds (the topics' chunks, repeated)
    topics_share: float = 1.0  # share of the reference topics the worker processes index
    wires: tuple[str, ...] = ("openai", "tei")
    growth_sizes: tuple[int, ...] = (10_000, 50_000, 100_000)
    guru_levels: tuple[int, ...] = (1, 20, 100)
    chunks_per_guru: int = 1_000
    queries: int = 200
    # A Milvus Lite part stops growing once its server holds this share of the memory that
    # was available when it started: a small machine reports where it stopped instead of swapping.
    memory_share: float = 0.5
    # The shared layout: gurus of `shared_chunks_per_guru` chunks beside a small guru of
    # `shared_small_chunks`; empty gurus (and empty collections of their own) weighed.
    shared_gurus: int = 200
    shared_chunks_per_guru: int = 200
    shared_small_chunks: int = 50
    shared_empty_gurus: int = 500
    own_empty_collections: int = 10
    parts: tuple[str, ...] = CAPACITY_PARTS

    @property
    def corpus_chunks(self) -> int:
        """Synthetic chunks the search parts that run draw from."""
        sizes = [0]
        if "search" in self.parts:
            sizes += [max(self.growth_sizes, default=0)]
            sizes += [max(self.guru_levels, default=0) * self.chunks_per_guru]
        if "shared" in self.parts:
            sizes += [self.shared_small_chunks + self.shared_gurus * self.shared_chunks_per_guru]
        return max(sizes)

    def only(self, *, parts: tuple[str, ...] = (), shared_gurus: int = 0) -> "CapacityPlan":
        """This plan limited to `parts` (all when empty), with `shared_gurus` gurus of chunks
        in the shared layout (and as many empty ones) when given."""
        unknown = set(parts) - set(CAPACITY_PARTS)
        if unknown:
            raise ValueError(f"unknown capacity parts: {', '.join(sorted(unknown))}")
        plan = self
        if parts:
            plan = replace(plan, parts=tuple(p for p in CAPACITY_PARTS if p in parts))
        if shared_gurus:
            plan = replace(plan, shared_gurus=shared_gurus, shared_empty_gurus=shared_gurus)
        return plan


QUICK_CAPACITY = CapacityPlan(
    embed_chunks=200,
    topics_share=0.2,
    growth_sizes=(2_000, 5_000, 10_000),
    guru_levels=(1, 5, 20),
    chunks_per_guru=250,
    queries=50,
    shared_gurus=50,
    shared_empty_gurus=200,
    own_empty_collections=5,
)
# The acceptance figure's size: 1,000 gurus of 200 chunks in one shared collection.
FULL_CAPACITY = replace(CapacityPlan(), shared_gurus=1_000, shared_empty_gurus=1_000)


def embedder_summary(
    embedding: Sequence[dict[str, Any]], workers: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """What moving the model out of the worker changed, as ratios measured in this run: the
    service's rate over the in-process one (first row), the worker CPU per 1,000 chunks it
    keeps, and the resident memory it saves (the first worker ran the model in-process)."""
    local = embedding[0] if embedding else {}
    summary: dict[str, Any] = {}
    for row in embedding[1:]:
        wire = str(row["embedder"]).split()[0]
        summary[f"{wire}_rate_vs_in_process"] = ratio(row["chunks_per_s"], local["chunks_per_s"])
        summary[f"{wire}_worker_cpu_share"] = ratio(
            row["worker_cpu_s_per_1000_chunks"], local["worker_cpu_s_per_1000_chunks"]
        )
    if len(workers) >= 2:
        summary["worker_rss_saved_mb"] = round(workers[0]["rss_mb"] - workers[1]["rss_mb"], 1)
        summary["worker_cpu_share_end_to_end"] = ratio(
            workers[1]["cpu_s_per_1000_chunks"], workers[0]["cpu_s_per_1000_chunks"]
        )
    return summary


def run_capacity(
    *, plan: CapacityPlan, paths: BenchPaths, processes: ChildProcesses, log: Log
) -> dict[str, Any]:
    # Imported here: they need Django configured, which the runner does before sections run.
    from benchmarks import capacity_search as search
    from benchmarks import capacity_shared as shared
    from benchmarks.search import load_bench_vectorstore

    root = paths.root / "capacity"
    root.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {"parts": list(plan.parts)}
    if "embedding" in plan.parts:
        result |= _embedding_part(plan=plan, root=root, paths=paths, processes=processes, log=log)
    if not {"search", "shared"} & set(plan.parts):
        return result
    bench = load_bench_vectorstore()
    log(f"capacity: {plan.corpus_chunks} synthetic chunks for the search parts")
    corpus = bench.synthetic_corpus(
        chunks=plan.corpus_chunks, dim=search.DIMENSION, queries=plan.queries, seed=0
    )
    if "search" in plan.parts:
        with search.lite_server(processes, root / "milvus-growth" / "growth.db", log) as (
            uri,
            pid,
        ):
            result["search_one_collection"] = search.measure_growth(
                uri=uri,
                pid=pid,
                corpus=corpus,
                sizes=plan.growth_sizes,
                queries=plan.queries,
                share=plan.memory_share,
                log=log,
            )
        with search.lite_server(processes, root / "milvus-gurus" / "gurus.db", log) as (uri, pid):
            result["search_gurus"] = search.measure_gurus(
                uri=uri,
                pid=pid,
                corpus=corpus,
                levels=plan.guru_levels,
                chunks_per_guru=plan.chunks_per_guru,
                queries=plan.queries,
                share=plan.memory_share,
                log=log,
            )
    if "shared" in plan.parts:
        with search.lite_server(processes, root / "milvus-shared" / "shared.db", log) as (
            uri,
            pid,
        ):
            result["shared_layout"] = shared.measure_shared(
                uri=uri,
                pid=pid,
                corpus=corpus,
                gurus=plan.shared_gurus,
                chunks_per_guru=plan.shared_chunks_per_guru,
                small_chunks=plan.shared_small_chunks,
                empty_gurus=plan.shared_empty_gurus,
                own_collections=plan.own_empty_collections,
                queries=plan.queries,
                log=log,
            )
    return result | {"data": SYNTHETIC_NOTE}


def _embedding_part(
    *, plan: CapacityPlan, root: Path, paths: BenchPaths, processes: ChildProcesses, log: Log
) -> dict[str, Any]:
    """Embedding in the worker against a service, then worker processes indexing with each."""
    # Imported here: it needs Django configured, which the runner does before sections run.
    from openguru.providers.embeddings.factory import get_embedder

    from benchmarks import capacity_embedding as embedding
    from benchmarks import capacity_search as search

    text = embedding.topics_text(plan.topics_share)
    text_file = root / "topics.md"
    text_file.write_text(text)
    chunks = embedding.chunk_texts(text, get_embedder())
    log(f"capacity: {len(chunks)} chunks of the reference topics, embedding {plan.embed_chunks}")

    service = embedding.EmbedService(processes, paths.logs)
    try:
        rows = embedding.measure_embedders(
            texts=embedding.cycled(chunks, plan.embed_chunks),
            service=service,
            wires=plan.wires,
            log=log,
        )
        service_memory = embedding.service_memory(service)
        with search.lite_server(processes, root / "milvus-workers" / "workers.db", log) as (uri, _):
            workers = []
            for provider in ("local", "tei"):
                measured = embedding.run_worker(
                    processes=processes,
                    paths=paths,
                    text_file=text_file,
                    milvus_uri=uri,
                    provider=provider,
                    embed_url=service.url if provider == "tei" else "",
                )
                log(f"capacity: worker {measured}")
                workers.append(measured)
    finally:
        service.stop()
    return {
        "summary": embedder_summary(rows, workers),
        "embedding": {"chunks": plan.embed_chunks, "rows": rows, **service_memory},
        "workers": workers,
    }
