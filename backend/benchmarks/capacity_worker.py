"""One ingestion worker process for the capacity section: Django on the bench settings it
inherits, one text source indexed by what the ingestion task runs (`source_process`: loader,
chunker, embedding cache, embedder, Milvus upserts), then its own CPU time and resident memory.
A process of its own so that its memory is a worker's, not the bench's. Tasks are not eager here:
the follow-up tasks a finished source sends (calibration) wait in the in-memory broker, as they
would run on the light queue, not in the ingestion worker.

    python -m benchmarks.capacity_worker --text FILE --title T --slug S --result FILE
        [--ready FILE --go FILE]

With --ready/--go (workers started together, as the scaleout section does) it writes --ready
once its model is loaded and its guru made, then waits for --go before it indexes, so that the
timed parts of every worker overlap.

`EMBEDDING_PROVIDER`, `EMBED_API_URL`, `MILVUS_URI` and `CELERY_TASK_ALWAYS_EAGER=false` come
from the environment the section sets. Writes one JSON object to --result; the guru it made is
deleted again.
"""

import argparse
import json
import time
from pathlib import Path
from typing import Any


def proc_status_mb(field: str, pid: int | str = "self") -> float:
    """A memory line of /proc/<pid>/status (VmRSS: resident now, VmHWM: its peak) in MB; 0 when
    the process is gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0
    for line in lines:
        if line.startswith(f"{field}:"):
            return round(int(line.split()[1]) / 1024, 1)  # reported in kB
    return 0.0


def wait_for(go: Path | None, ready: Path | None) -> None:
    if ready is not None:
        ready.write_text("ready\n")
    while go is not None and not go.exists():
        time.sleep(0.05)


def ingest(
    *, text: str, title: str, slug: str, ready: Path | None = None, go: Path | None = None
) -> dict[str, Any]:
    from django.conf import settings
    from openguru.gurus.services import guru_create, guru_delete
    from openguru.providers.embeddings.factory import get_embedder
    from openguru.providers.vectorstore.factory import get_vector_store
    from openguru.sources.models import DataSource
    from openguru.sources.processing import source_process
    from openguru.sources.services import source_create

    # Building the embedder loads the local model here, untimed.
    embedder, store = get_embedder(), get_vector_store()
    guru = guru_create(
        slug=slug,
        name="Capacity",
        domain_knowledge="Python language topics",
        embedder=embedder,
        store=store,
    )
    rss_ready = proc_status_mb("VmRSS")
    try:
        source = source_create(guru=guru, type="text", title=title, content=text)
        wait_for(go, ready)
        wall_start = time.time()
        cpu, started = time.process_time(), time.perf_counter()
        source_process(
            source_id=source.pk,
            token="capacity-worker",  # noqa: S106 (a run id)
            embedder=embedder,
            store=store,
        )
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        wall_end = time.time()
        source.refresh_from_db()
        if source.status != DataSource.Status.SUCCESS:
            raise RuntimeError(f"indexing failed: {source.status} {source.error}")
        result = dict(source.last_result)
        return {
            "embedding_provider": settings.EMBEDDING_PROVIDER,
            "chunks": int(result["chunks_total"]),
            "chunks_embedded": int(result["chunks_embedded"]),
            "seconds": round(seconds, 2),
            "wall_start": wall_start,
            "wall_end": wall_end,
            "cpu_s": round(cpu, 2),
            "rss_ready_mb": rss_ready,
            "rss_mb": proc_status_mb("VmRSS"),
            "peak_rss_mb": proc_status_mb("VmHWM"),
        }
    finally:
        guru_delete(guru=guru, store=store)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", type=Path, required=True)
    parser.add_argument("--title", required=True)
    parser.add_argument("--slug", required=True)
    parser.add_argument("--result", type=Path, required=True)
    parser.add_argument("--ready", type=Path)
    parser.add_argument("--go", type=Path)
    args = parser.parse_args()
    import django

    django.setup()
    measured = ingest(
        text=args.text.read_text(), title=args.title, slug=args.slug, ready=args.ready, go=args.go
    )
    args.result.write_text(json.dumps(measured) + "\n")


if __name__ == "__main__":
    main()
