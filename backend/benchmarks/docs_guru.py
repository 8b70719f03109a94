"""The benchmark's guru: the Python docs served from a loopback static server and indexed through
the real processing path (source create -> Celery task, run eagerly -> loader, chunker, local
embedder, Milvus). The ingest section times it; the answer sections ask it questions."""

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openguru.gurus.models import Guru
from openguru.gurus.services import guru_create
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.providers.vectorstore.lite_server import free_port
from openguru.sources.models import DataSource
from openguru.sources.services import source_create, source_reindex

from benchmarks.config import SiteScope
from benchmarks.paths import REPO_DIR
from benchmarks.processes import ChildProcesses, port_open, wait_until

GURU_SLUG = "python-docs"
GURU_NAME = "Python"
DOMAIN = "The Python 3.11 language, its standard library and its documentation"


@dataclass(frozen=True)
class IndexRun:
    seconds: float
    result: dict[str, Any]  # DataSource.last_result: the run's counters


def serve_docs(
    html_root: Path, processes: ChildProcesses, logs: Path
) -> tuple[str, subprocess.Popen[bytes]]:
    """Start the loopback static server (ETag/Last-Modified, 304s) on the docs: its base URL
    and process."""
    port = free_port()
    process = processes.start(
        "docs site",
        [
            sys.executable,
            "-m",
            "tests.fakes.docs_site",
            "--root",
            str(html_root),
            "--port",
            str(port),
        ],
        cwd=REPO_DIR,
        env={"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"},
        log_file=logs / "docs_site.log",
    )
    wait_until(lambda: port_open(port), timeout=30, what="docs site", process=process)
    return f"http://127.0.0.1:{port}", process


def docs_guru() -> Guru | None:
    """The indexed guru from this or an earlier run, if its source finished successfully."""
    guru = Guru.objects.filter(slug=GURU_SLUG).first()
    if guru is None or not guru.sources.filter(status=DataSource.Status.SUCCESS).exists():
        return None
    return guru


def create_guru() -> Guru:
    return guru_create(
        slug=GURU_SLUG,
        name=GURU_NAME,
        domain_knowledge=DOMAIN,
        embedder=get_embedder(),
        store=get_vector_store(),
    )


def index_first_time(guru: Guru, *, site_url: str, scope: SiteScope) -> tuple[DataSource, IndexRun]:
    options: dict[str, Any] = {"max_pages": scope.max_pages}
    if scope.include_patterns:
        options["include_patterns"] = list(scope.include_patterns)
    started = time.perf_counter()
    # With CELERY_TASK_ALWAYS_EAGER the on-commit enqueue runs the task right here.
    source = source_create(
        guru=guru, type="website", url=f"{site_url}/index.html", crawl_mode="crawl", options=options
    )
    return source, _finished(source, started)


def index_again(source: DataSource) -> IndexRun:
    started = time.perf_counter()
    source_reindex(source=source)
    return _finished(source, started)


def _finished(source: DataSource, started: float) -> IndexRun:
    seconds = time.perf_counter() - started
    source.refresh_from_db()
    if source.status != DataSource.Status.SUCCESS:
        raise RuntimeError(f"indexing the docs failed: {source.status} {source.error}")
    return IndexRun(seconds=seconds, result=dict(source.last_result))
