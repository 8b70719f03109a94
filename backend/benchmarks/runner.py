"""One bench run: start what the chosen sections need, run them, stop everything, write the
report. Django is configured here, before any module that imports models."""

import os
import shutil
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from openguru.providers.vectorstore.lite_server import free_port, start_lite_server

from benchmarks.config import BenchConfig
from benchmarks.environment import recreate_postgres_database, setup_django
from benchmarks.paths import BenchPaths
from benchmarks.processes import ChildProcesses, raise_open_files_limit
from benchmarks.report import build_report, write_report

UNUSED_MILVUS_URI = "http://127.0.0.1:9"  # nothing listens: only the search section runs


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM cleans up like Ctrl-C


def _start_milvus(processes: ChildProcesses, data_file: Path, *, fresh: bool) -> str:
    if fresh:
        shutil.rmtree(data_file.parent, ignore_errors=True)
    port = free_port()
    processes.adopt(
        f"Milvus Lite {data_file.name}", start_lite_server(data_file=data_file, port=port)
    )
    log(f"Milvus Lite on 127.0.0.1:{port} ({data_file})")
    return f"http://127.0.0.1:{port}"


def run(config: BenchConfig, paths: BenchPaths | None = None) -> int:
    """Run the bench; returns the exit status (1 when a section failed)."""
    paths = paths or BenchPaths.default()
    signal.signal(signal.SIGTERM, _interrupt)
    raise_open_files_limit()
    started, load_at_start = time.perf_counter(), [round(x, 2) for x in os.getloadavg()]
    with ChildProcesses() as processes:
        uri = UNUSED_MILVUS_URI
        if config.needs_docs_guru or {"connectors", "refusal"} & set(config.sections):
            if "ingest" in config.sections:
                shutil.rmtree(paths.state, ignore_errors=True)  # a fresh database and cache
                if config.database_url:
                    recreate_postgres_database(config.database_url)
            uri = _start_milvus(processes, paths.milvus_data, fresh=False)
        setup_django(
            paths,
            milvus_uri=uri,
            migrate=config.needs_database,
            database_url=config.database_url,
        )

        from benchmarks.sections import SectionRunner

        start_search: Callable[[], str] = lambda: _start_milvus(  # noqa: E731
            processes, paths.search_milvus_data, fresh=True
        )
        runner = SectionRunner(config, paths, processes, log, start_search_milvus=start_search)
        runner.run()
    notes: dict[str, Any] = {
        **runner.notes,
        "failed_sections": runner.failed,
        # Other work on the machine skews every number: compare ratios within one run.
        "load_average_at_start": load_at_start,
    }
    report = build_report(
        runner.results,
        settings=report_settings(config),
        notes=notes,
        seconds=time.perf_counter() - started,
    )
    write_report(config.output, report)
    log(f"wrote {config.output} in {report['duration_s']}s")
    return 1 if runner.failed else 0


def report_settings(config: BenchConfig) -> dict[str, object]:
    """The run's own settings, and how questions and passages are to be embedded: the servers
    and workers take both from the environment. `EMBEDDING_LOCAL_QUERY_BACKEND` is as configured
    (a failed ONNX export would fall back to torch and say so in their log) and moves time to
    first token; the passages' precision, as this CPU resolves `auto`, moves ingest speed."""
    from django.conf import settings
    from openguru.providers.embeddings.local import resolve_precision

    return config.as_dict() | {
        "question_encoder": settings.EMBEDDING_LOCAL_QUERY_BACKEND,
        "passage_precision": resolve_precision(settings.EMBEDDING_LOCAL_PRECISION),
    }
