"""Section — scaleout: what one more process buys on this host, against one database, one
broker and one Milvus. Answers: the overload section's open-loop arrivals and budget against
gunicorn with 1, 2 and 4 workers; the sustainable rate per process count. Ingestion: 1, 2 and 4
ingestion worker processes (the capacity section's worker: loader, chunker, embedder, Milvus
upserts) indexing distinct texts at once; chunks/s over the span from the first start to the
last finish. docs/scaling.md turns these per-process figures into a sizing table."""

import asyncio
import json
import os
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.api_server import ApiServer
from benchmarks.config import ScaleoutPlan
from benchmarks.overload import MODE, answer_cache_off, overload_on_own_server
from benchmarks.paths import BACKEND_DIR, BenchPaths
from benchmarks.processes import ChildProcesses
from benchmarks.stats import per_second

Log = Callable[[str], None]
WORKER_TIMEOUT_S = 1800.0
READY_TIMEOUT_S = 600.0


def run_scaleout_api(
    *,
    api: ApiServer,
    slug: str,
    questions: Sequence[str],
    floor_ms: float,
    plan: ScaleoutPlan,
    timeout: float,
    processes: ChildProcesses,
    logs: Path,
    log: Log,
) -> list[dict[str, Any]]:
    """The caller turns the answer cache off, as the overload section does."""
    rows = []
    for count in plan.api_processes:
        log(f"scaleout: {count} API process(es)")
        result = overload_on_own_server(
            api,
            slug=slug,
            workers=count,
            questions=questions,
            floor_ms=floor_ms,
            plan=plan.overload,
            timeout=timeout,
            processes=processes,
            logs=logs,
            log=log,
        )
        rows.append({"api_processes": count, **_api_row(result)})
    return rows


def _api_row(result: dict[str, Any]) -> dict[str, Any]:
    sustainable = result["sustainable_rate_per_s"]
    at = next((r for r in result["levels"] if r["rate_per_s"] == sustainable), None)
    return {
        "sustainable_rate_per_s": sustainable,
        "server_cpu_ms_per_answer": at["server_cpu_ms_per_answer"] if at else None,
        "p95_overhead_ms": at["p95_overhead_ms"] if at else None,
        "levels": result["levels"],
    }


def run_scaleout_ingest(
    *, plan: ScaleoutPlan, paths: BenchPaths, processes: ChildProcesses, log: Log
) -> list[dict[str, Any]]:
    from openguru.sources.models import EmbeddingCacheEntry

    from benchmarks.capacity_embedding import TITLE, topics_text
    from benchmarks.capacity_search import lite_server

    root = paths.root / "scaleout"
    root.mkdir(parents=True, exist_ok=True)
    text = topics_text(plan.topics_share)
    rows = []
    with lite_server(processes, root / "milvus" / "scaleout.db", log) as (uri, _):
        for count in plan.worker_processes:
            EmbeddingCacheEntry.objects.all().delete()  # every worker embeds all it indexes
            texts = [_distinct(text, f"{count}-{index}") for index in range(count)]
            measured = _workers_at_once(
                texts, title=TITLE, milvus_uri=uri, root=root, processes=processes, paths=paths
            )
            row = _ingest_row(count, measured)
            log(f"scaleout: {row}")
            rows.append(row)
    return rows


def _distinct(text: str, tag: str) -> str:
    """The same topics, worded apart per worker, so no worker's chunks are another's cache hits."""
    return "\n\n".join(f"{part} [{tag}]" for part in text.split("\n\n"))


def _workers_at_once(
    texts: list[str],
    *,
    title: str,
    milvus_uri: str,
    root: Path,
    processes: ChildProcesses,
    paths: BenchPaths,
) -> list[dict[str, Any]]:
    run = uuid.uuid4().hex[:8]
    go = root / f"go-{run}"
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "MILVUS_URI": milvus_uri,
        "EMBEDDING_PROVIDER": "local",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    started = []
    for index, text in enumerate(texts):
        text_file, ready = root / f"text-{run}-{index}.md", root / f"ready-{run}-{index}"
        result = root / f"result-{run}-{index}.json"
        text_file.write_text(text)
        argv = [
            sys.executable, "-m", "benchmarks.capacity_worker", "--text", str(text_file),
            "--title", title, "--slug", f"scaleout-{run}-{index}", "--result", str(result),
            "--ready", str(ready), "--go", str(go),
        ]  # fmt: skip
        process = processes.start(
            f"ingestion worker {index}",
            argv,
            cwd=BACKEND_DIR,
            env=env,
            log_file=paths.logs / "scaleout_worker.log",
        )
        started.append((process, ready, result))
    try:
        _wait_ready([ready for _, ready, _ in started])
        go.write_text("go\n")
        return [_result(process, result) for process, _, result in started]
    finally:
        for process, _, _ in started:
            processes.stop(process)


def _wait_ready(files: list[Path]) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not all(f.exists() for f in files):
        if time.monotonic() > deadline:
            raise RuntimeError("ingestion workers did not load their model in time")
        time.sleep(0.2)


def _result(process: Any, result: Path) -> dict[str, Any]:
    code = process.wait(timeout=WORKER_TIMEOUT_S)
    if code != 0 or not result.exists():
        raise RuntimeError(f"an ingestion worker exited with {code}: see scaleout_worker.log")
    measured: dict[str, Any] = json.loads(result.read_text())
    return measured


def _ingest_row(count: int, measured: list[dict[str, Any]]) -> dict[str, Any]:
    chunks = sum(int(m["chunks_embedded"]) for m in measured)
    span = max(m["wall_end"] for m in measured) - min(m["wall_start"] for m in measured)
    return {
        "worker_processes": count,
        "chunks": chunks,
        "seconds": round(span, 2),
        "chunks_per_s": per_second(chunks, span),
        "peak_rss_mb_per_worker": max(m["peak_rss_mb"] for m in measured),
    }


def scaleout_section(
    *,
    api: ApiServer,
    guru: Any,
    questions: Sequence[str],
    contexts: list[str],
    plan: ScaleoutPlan,
    timeout: float,
    processes: ChildProcesses,
    paths: BenchPaths,
    log: Log,
) -> dict[str, Any]:
    from benchmarks.collection import evenly_spaced
    from benchmarks.ttft import FLOOR_SAMPLES, llm_floor

    floor = asyncio.run(
        llm_floor(api, guru, evenly_spaced(list(questions), FLOOR_SAMPLES), contexts)
    )
    with answer_cache_off():
        answers = run_scaleout_api(
            api=api,
            slug=guru.slug,
            questions=questions,
            floor_ms=floor[f"{MODE}_floor_ms"],
            plan=plan,
            timeout=timeout,
            processes=processes,
            logs=paths.logs,
            log=log,
        )
    ingest = run_scaleout_ingest(plan=plan, paths=paths, processes=processes, log=log)
    return {"answers": answers, "ingest": ingest, "host_cpus": os.cpu_count()}
