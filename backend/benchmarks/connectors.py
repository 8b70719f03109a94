"""Section `connectors`: each connector's ingestion rate against its loopback stand-in serving
a given number of items, through the real path (source create -> processing task, run eagerly ->
connector -> chunker -> local embedder -> Milvus), then a re-sync with nothing changed.

A connector takes part by a module `benchmarks.connector_<type>` exposing
`bench_ingest(n_items: int) -> dict`; those not present in this checkout are skipped."""

import importlib
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.utils import timezone
from openguru.gurus.models import Guru
from openguru.gurus.services import guru_create, guru_delete
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource, EmbeddingCacheEntry
from openguru.sources.services import source_create, source_reindex

from benchmarks.stats import per_second

CONNECTORS = ("github_issues", "youtube", "confluence", "jira", "zendesk")


def run_connectors(*, n_items: int, log: Callable[[str], None]) -> dict[str, Any]:
    # The rate includes embedding: text an earlier run embedded would come from the cache. The
    # ingest section, the one other reader of the cache, has run by now.
    EmbeddingCacheEntry.objects.all().delete()
    results: dict[str, Any] = {}
    for name in CONNECTORS:
        try:
            module = importlib.import_module(f"benchmarks.connector_{name}")
        except ModuleNotFoundError:
            continue
        log(f"connectors: {name}, {n_items} items")
        results[name] = module.bench_ingest(n_items)
        log(f"connectors: {name}: {results[name]}")
    return results


@contextmanager
def scratch_guru(prefix: str) -> Iterator[Guru]:
    """A guru of its own for one connector's run, deleted (with its collection) afterwards."""
    store, embedder = get_vector_store(), get_embedder()
    guru = guru_create(
        slug=f"bench-{prefix}-{uuid.uuid4().hex[:6]}",
        name=f"Bench {prefix}",
        domain_knowledge="",
        embedder=embedder,
        store=store,
    )
    try:
        yield guru
    finally:
        guru_delete(guru=guru, store=store)


def index_and_resync(*, guru: Guru, connector: str, n_items: int, **source: Any) -> dict[str, Any]:
    """Index one connector source, then re-sync it unchanged; the counters of both runs."""
    started = timezone.now()
    created = source_create(guru=guru, type=connector, **source)
    first = _finished(created, started)
    started = timezone.now()
    source_reindex(source=created)
    again = _finished(created, started)
    return {
        "connector": connector,
        "items": n_items,
        "documents_per_s": per_second(n_items, first[0]),
        "chunks": int(first[1].get("chunks_total", 0)),
        "chunks_embedded": int(first[1].get("chunks_embedded", 0)),
        "first_sync_s": round(first[0], 1),
        "resync_unchanged_s": round(again[0], 1),
        "resync_embedded": int(again[1].get("chunks_embedded", 0)),
    }


def _finished(source: DataSource, started: datetime) -> tuple[float, dict[str, Any]]:
    """Seconds until the run marked the source indexed: what an eager Celery runs after it
    (the guru's trust calibration) is not the connector's time."""
    source.refresh_from_db()
    if source.status != DataSource.Status.SUCCESS or source.last_indexed_at is None:
        raise RuntimeError(f"{source.type} sync failed: {source.status} {source.error}")
    return (source.last_indexed_at - started).total_seconds(), dict(source.last_result)
