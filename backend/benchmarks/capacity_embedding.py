"""The capacity section's embedding half: what moving the embedding model out of the ingestion
worker buys. The same chunk texts are embedded in-process (the local embedder) and through the
product's `openai` and `tei` embedders against `embed_server.py`, which serves the same model from
a process of its own; then one worker process per configuration indexes a text source for real,
and its CPU time and resident memory are read.

The text is the Python language reference as the standard library ships it for `help()`
(`pydoc_data.topics`): real documentation prose, present wherever Python is, no download."""

import json
import os
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import override_settings
from openguru.providers.embeddings.base import Embedder
from openguru.providers.embeddings.factory import build_embedder, get_embedder
from openguru.providers.vectorstore.lite_server import free_port
from openguru.sources.chunking import chunk_documents, default_chunk_size
from openguru.sources.indexing import BATCH_SIZE
from openguru.sources.loaders.base import Document

from benchmarks.capacity_worker import proc_status_mb
from benchmarks.paths import BACKEND_DIR, BenchPaths
from benchmarks.processes import ChildProcesses, port_open, tree_cpu_seconds, wait_until
from benchmarks.stats import per_second

Log = Callable[[str], None]
TITLE = "Python language reference topics"
WORKER_TIMEOUT_S = 600.0


def topics_text(share: float = 1.0) -> str:
    """The reference topics as one markdown text (a heading per topic); `share` < 1 keeps that
    fraction of the topics, for a quick run."""
    from pydoc_data.topics import topics

    names = sorted(topics)
    kept = names[: max(1, round(len(names) * share))]
    return "\n\n".join(f"## {name}\n\n{topics[name].strip()}" for name in kept)


def chunk_texts(text: str, embedder: Embedder) -> list[str]:
    """The chunks a text source of `text` gets (the indexer's chunker and sizes)."""
    document = Document(title=TITLE, link="text://capacity", text=text, format="markdown")
    chunks = chunk_documents(
        [document],
        size_tokens=settings.CHUNK_SIZE_TOKENS or default_chunk_size(embedder),
        overlap_tokens=settings.CHUNK_OVERLAP_TOKENS,
        min_chars=settings.CHUNK_MIN_CHARS,
        count_tokens=embedder.count_tokens,
    )
    return [chunk.text for chunk in chunks]


def cycled(texts: Sequence[str], count: int) -> list[str]:
    """`count` texts, repeating `texts` in order as often as needed."""
    if not texts:
        return []
    return [texts[i % len(texts)] for i in range(count)]


def cpu_s_per_thousand(cpu_seconds: float, chunks: int) -> float | None:
    return round(cpu_seconds * 1000 / chunks, 2) if chunks > 0 else None


class EmbedService:
    """`embed_server.py` in a process of its own; `url` once the model is loaded."""

    def __init__(self, processes: ChildProcesses, logs: Path) -> None:
        port = free_port()
        self._processes = processes
        self.process = processes.start(
            "embedding service",
            [sys.executable, "-m", "benchmarks.embed_server", "--port", str(port)],
            cwd=BACKEND_DIR,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            log_file=logs / "embed_server.log",
        )
        wait_until(
            lambda: port_open(port), timeout=180, what="embedding service", process=self.process
        )
        self.url = f"http://127.0.0.1:{port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def embedder(self, wire: str) -> Embedder:
        """The product's embedder for `wire` ("openai" or "tei"), built by the factory from the
        settings an operator would set."""
        url = f"{self.url}/v1" if wire == "openai" else self.url
        with override_settings(EMBEDDING_PROVIDER=wire, EMBED_API_URL=url, EMBED_API_KEY=""):
            return build_embedder(settings.EMBEDDING_PROVIDER, settings.EMBEDDING_MODEL)

    def stop(self) -> None:
        self._processes.stop(self.process)


def timed_embedding(
    embedder: Embedder, texts: Sequence[str], *, service_pid: int | None = None
) -> dict[str, Any]:
    """Embed `texts` as the indexer does (its batch size), after one untimed batch: chunks/s,
    this process's CPU seconds per 1,000 chunks and, with a service, the service's."""
    embedder.embed_documents(list(texts[:BATCH_SIZE]))
    service_cpu = tree_cpu_seconds(service_pid) if service_pid else 0.0
    cpu, started = time.process_time(), time.perf_counter()
    for start in range(0, len(texts), BATCH_SIZE):
        embedder.embed_documents(list(texts[start : start + BATCH_SIZE]))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    service = tree_cpu_seconds(service_pid) - service_cpu if service_pid else None
    return {
        "chunks_per_s": per_second(len(texts), seconds),
        "worker_cpu_s_per_1000_chunks": cpu_s_per_thousand(cpu, len(texts)),
        "service_cpu_s_per_1000_chunks": (
            None if service is None else cpu_s_per_thousand(service, len(texts))
        ),
        "seconds": round(seconds, 2),
    }


def measure_embedders(
    *, texts: Sequence[str], service: EmbedService, wires: Sequence[str], log: Log
) -> list[dict[str, Any]]:
    local = get_embedder()
    rows = [{"embedder": "local, in the worker", **timed_embedding(local, texts)}]
    log(f"capacity: in-process {rows[0]}")
    for wire in wires:
        row = {
            "embedder": f"{wire} over HTTP",
            **timed_embedding(service.embedder(wire), texts, service_pid=service.pid),
        }
        log(f"capacity: {row}")
        rows.append(row)
    return rows


def run_worker(
    *,
    processes: ChildProcesses,
    paths: BenchPaths,
    text_file: Path,
    milvus_uri: str,
    provider: str,
    embed_url: str = "",
) -> dict[str, Any]:
    """One worker process indexes `text_file` as a text source; its measurements."""
    result = paths.root / "capacity" / f"worker-{provider}.json"
    result.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "MILVUS_URI": milvus_uri,
        "EMBEDDING_PROVIDER": provider,
        "EMBED_API_URL": embed_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",  # the worker runs the indexing itself, timed
    }
    argv = [
        sys.executable, "-m", "benchmarks.capacity_worker",
        "--text", str(text_file), "--title", TITLE, "--result", str(result),
        "--slug", f"capacity-{provider}-{uuid.uuid4().hex[:8]}",
    ]  # fmt: skip
    process = processes.start(
        f"ingestion worker ({provider})",
        argv,
        cwd=BACKEND_DIR,
        env=env,
        log_file=paths.logs / "capacity_worker.log",
    )
    try:
        code = process.wait(timeout=WORKER_TIMEOUT_S)
    finally:
        processes.stop(process)
    if code != 0 or not result.exists():
        raise RuntimeError(f"the {provider} worker exited with {code}: see capacity_worker.log")
    measured: dict[str, Any] = json.loads(result.read_text())
    chunks = int(measured["chunks"])
    measured["chunks_per_s"] = per_second(chunks, float(measured["seconds"]))
    measured["cpu_s_per_1000_chunks"] = cpu_s_per_thousand(float(measured["cpu_s"]), chunks)
    return measured


def service_memory(service: EmbedService) -> dict[str, float]:
    return {
        "service_rss_mb": proc_status_mb("VmRSS", service.pid),
        "service_peak_rss_mb": proc_status_mb("VmHWM", service.pid),
    }
