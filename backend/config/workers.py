"""The Celery workers `make run` starts (`scripts/run_embedded.py`); the real-worker tests start
the same command lines.

One worker per queue, one task at a time each: website crawls and crawl discovery on `ingest`,
everything else on `light` (small sources, summaries, beat's bookkeeping;
`openguru/sources/routing.py`). One worker with two slots would not do: two crawls could take
both. One slot each keeps the memory of a laptop run to two embedding models."""

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class WorkerSpec:
    name: str
    queues: tuple[str, ...]
    concurrency: int = 1

    def argv(self, celery: Sequence[str], *extra: str) -> list[str]:
        """`celery` is how to run Celery with our app (e.g. `celery -A config`)."""
        return [
            *celery, "worker", "-Q", ",".join(self.queues), "--concurrency", str(self.concurrency),
            # Two workers on one host need their own names (celery@<host> each, otherwise).
            "-n", f"{self.name}@%h", *extra,
        ]  # fmt: skip


EMBEDDED_WORKERS = (
    WorkerSpec("crawls", ("ingest",)),
    WorkerSpec("light", ("light",)),
)
