"""The scaleout section's pure parts, and the start barrier its ingestion workers share."""

import threading
import time
from pathlib import Path

from benchmarks.capacity_worker import wait_for
from benchmarks.config import QUICK_SCALEOUT, BenchConfig
from benchmarks.scaleout import _api_row, _distinct, _ingest_row


def test_scaleout_asks_and_so_needs_the_docs_guru() -> None:
    config = BenchConfig.build(sections=("scaleout",), output=Path("x.json"), quick=True)
    assert config.asks and config.needs_database
    assert config.scaleout == QUICK_SCALEOUT


def test_each_worker_indexes_the_same_topics_worded_apart() -> None:
    text = "## a\n\nfirst\n\n## b\n\nsecond"
    one, two = _distinct(text, "2-0"), _distinct(text, "2-1")
    assert one != two
    assert set(one.split("\n\n")).isdisjoint(two.split("\n\n"))  # no shared chunk text
    assert one.count("\n\n") == text.count("\n\n")


def test_ingest_rate_spans_the_first_start_to_the_last_finish() -> None:
    measured = [
        {"chunks_embedded": 100, "wall_start": 10.0, "wall_end": 14.0, "peak_rss_mb": 300.0},
        {"chunks_embedded": 100, "wall_start": 11.0, "wall_end": 15.0, "peak_rss_mb": 320.0},
    ]
    row = _ingest_row(2, measured)
    assert (row["chunks"], row["seconds"], row["chunks_per_s"]) == (200, 5.0, 40.0)
    assert row["peak_rss_mb_per_worker"] == 320.0


def test_the_api_row_reports_the_sustainable_level() -> None:
    levels = [
        {"rate_per_s": 4, "server_cpu_ms_per_answer": 30.0, "p95_overhead_ms": 80.0},
        {"rate_per_s": 8, "server_cpu_ms_per_answer": 28.0, "p95_overhead_ms": 120.0},
    ]
    row = _api_row({"sustainable_rate_per_s": 8, "levels": levels})
    assert (row["server_cpu_ms_per_answer"], row["p95_overhead_ms"]) == (28.0, 120.0)
    assert _api_row({"sustainable_rate_per_s": None, "levels": levels})["p95_overhead_ms"] is None


def test_a_worker_says_it_is_ready_and_waits_for_go(tmp_path: Path) -> None:
    ready, go = tmp_path / "ready", tmp_path / "go"
    worker = threading.Thread(target=wait_for, args=(go, ready))
    worker.start()
    deadline = time.monotonic() + 5
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ready.exists() and worker.is_alive()  # ready, and still waiting
    go.write_text("go")
    worker.join(timeout=5)
    assert not worker.is_alive()
