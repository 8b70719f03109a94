"""The search section's recall curve, end to end against a Milvus Lite server of its own."""

from pathlib import Path

import pytest
from benchmarks.processes import ChildProcesses
from benchmarks.search import SearchPlan
from benchmarks.search_recall import run_recall

pytestmark = pytest.mark.slow


def test_the_curve_measures_each_size_and_stops_where_the_budget_ends(tmp_path: Path) -> None:
    # The third size's projected insert time (at any rate Milvus Lite reaches) overruns the budget.
    plan = SearchPlan(recall_sizes=(300, 600, 100_000), recall_budget_s=30, recall_queries=8)
    with ChildProcesses() as processes:
        result = run_recall(plan=plan, root=tmp_path, processes=processes, log=lambda _: None)
    assert [row["chunks"] for row in result["rows"]] == [300, 600]
    for row in result["rows"]:
        assert row["insert_rows_per_s"] > 0
        # Clustered vectors at these sizes are searched exactly: every true neighbour is found.
        assert row["dense_recall@10"] >= 0.9 and row["dense_filter_recall@10"] >= 0.9
        assert row["dense_p95_ms"] >= row["dense_p50_ms"] > 0
        assert row["index_type"] == "AUTOINDEX"
    assert result["stopped"] is not None and "budget" in result["stopped"]
