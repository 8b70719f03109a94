"""Section 2 — search: dense, BM25 and hybrid latency through `MilvusVectorStore` on synthetic
clustered 384-d vectors, and dense recall@10 against exact numpy brute force.

The latency part's measuring code is `bench_search` in `backend/scripts/bench_vectorstore.py`
(also a command of its own); this section runs it at two sizes. Inserting with the BM25 function
is the slow part, so the first size also measures the insert rate, and the large size runs only
when its projected time fits the budget (or with `--full`). The recall part
(`search_recall.py`) grows one collection towards a million chunks, measuring dense recall@10
at each size, as far as its time budget goes."""

import importlib.util
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from openguru.providers.vectorstore.milvus import MilvusVectorStore

from benchmarks.paths import BACKEND_DIR

SCRIPT = BACKEND_DIR / "scripts" / "bench_vectorstore.py"
# Inserts slow down as the collection grows (measured here: ~1,800-2,300 rows/s at 10k, ~700-900
# at 100k), and the four modes' queries come on top: the 10k rate times this factor.
SLOWDOWN_FACTOR = 2.5
SEARCH_PARTS = ("latency", "recall")


@dataclass(frozen=True)
class SearchPlan:
    small: int = 10_000
    large: int = 100_000
    fallback: int = 50_000
    queries: int = 200
    large_budget_s: float = 300.0  # projected insert + query time allowed for the large size
    force_large: bool = False
    parts: tuple[str, ...] = ("latency",)
    # The recall curve: one collection grown through these sizes, stopped before a size whose
    # projected insert time would overrun the budget.
    recall_sizes: tuple[int, ...] = (100_000, 250_000, 500_000, 1_000_000)
    recall_budget_s: float = 25 * 60.0
    recall_queries: int = 200
    # ...or once the server holds this share of the memory available when it started.
    recall_memory_share: float = 0.5

    def only(
        self, *, parts: tuple[str, ...] = (), recall_sizes: tuple[int, ...] = ()
    ) -> "SearchPlan":
        unknown = set(parts) - set(SEARCH_PARTS)
        if unknown:
            raise ValueError(f"unknown search parts: {', '.join(sorted(unknown))}")
        plan = self
        if parts:
            plan = replace(plan, parts=tuple(p for p in SEARCH_PARTS if p in parts))
        if recall_sizes:
            plan = replace(plan, recall_sizes=tuple(sorted(recall_sizes)))
        return plan


def load_bench_vectorstore(path: Path = SCRIPT) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_vectorstore", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def projected_seconds(chunks: int, rows_per_s: float) -> float:
    return chunks / rows_per_s * SLOWDOWN_FACTOR if rows_per_s > 0 else float("inf")


def large_size(plan: SearchPlan, rows_per_s: float) -> tuple[int, str]:
    """The second size to run and why."""
    projected = projected_seconds(plan.large, rows_per_s)
    why = f"measured insert rate {rows_per_s:.0f} rows/s -> {plan.large} rows ~{projected:.0f}s"
    if plan.force_large or projected <= plan.large_budget_s:
        return plan.large, why
    return plan.fallback, f"{why}, over the {plan.large_budget_s:.0f}s budget: ran {plan.fallback}"


def run_search(
    *, uri: str, plan: SearchPlan, log: Callable[[str], None]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Rows in the report's shape (plus `insert_rows_per_s`, `search_s`) and notes."""
    bench = load_bench_vectorstore()
    store = MilvusVectorStore(uri=uri, timeout_seconds=600)
    notes: dict[str, Any] = {"queries_per_mode": plan.queries, "dimension": 384}
    try:
        rows = _measure(bench, store, plan.small, plan.queries, log)
        if plan.large > plan.small:
            size, why = large_size(plan, float(rows[0]["insert_rows_per_s"]))
            notes["large_size"] = why
            log(f"search: {why}")
            rows += _measure(bench, store, size, plan.queries, log)
    finally:
        store.close()
    return rows, notes


def _measure(
    bench: ModuleType,
    store: MilvusVectorStore,
    chunks: int,
    queries: int,
    log: Callable[[str], None],
) -> list[dict[str, Any]]:
    log(f"search: {chunks} synthetic chunks, {queries} queries per mode")
    started = time.perf_counter()
    rows: list[dict[str, Any]] = bench.bench_search(store, chunks=chunks, queries=queries)
    for row in rows:
        row["search_s"] = round(time.perf_counter() - started, 1)
    return rows
