"""A tiny end-to-end run of the search section against the real Milvus Lite server."""

import pytest
from benchmarks.search import SearchPlan, run_search
from django.conf import settings

pytestmark = pytest.mark.slow


def test_search_section_reports_every_mode_with_exact_recall() -> None:
    plan = SearchPlan(small=400, large=0, queries=8)
    rows, notes = run_search(uri=settings.MILVUS_URI, plan=plan, log=lambda _: None)
    assert [row["mode"] for row in rows] == ["dense", "dense+filter", "bm25", "hybrid"]
    for row in rows:
        assert row["chunks"] == 400
        assert row["p50_ms"] > 0 and row["p95_ms"] >= row["p50_ms"]
        assert row["insert_rows_per_s"] > 0
    dense = rows[0]
    # Clustered vectors at this size are searched exactly: every true neighbour is found.
    assert dense["recall@10_vs_exact"] >= 0.9
    assert dense["exact_p50_ms"] is not None
    assert rows[2]["recall@10_vs_exact"] is None  # BM25 has no exact reference
    assert "large_size" not in notes  # large=0: one size only
