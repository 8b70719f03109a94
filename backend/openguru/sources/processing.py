"""The processing run a worker performs for one source: claim, index, record the outcome."""

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from openguru.core.crypto import secret_decrypt
from openguru.core.disk import INDEXING, disk_full_cause, disk_full_error, ingest_disk_check
from openguru.core.errors import DATABASE_DOWN, DomainError, TransientError
from openguru.core.metrics import ingestion_failure_record, ingestion_record
from openguru.core.queues import LIGHT_QUEUE
from openguru.core.task_send import task_send
from openguru.providers.embeddings.base import Embedder
from openguru.providers.llm.factory import llm_configured
from openguru.providers.vectorstore.base import VectorStore
from openguru.sources.claims import Claim, claim_heartbeat, source_claim, source_release
from openguru.sources.connectors.registry import connector_loader_for
from openguru.sources.indexing import IndexStats, IndexTarget, index_source
from openguru.sources.loaders.base import LoadRequest
from openguru.sources.loaders.registry import loader_for
from openguru.sources.models import DataSource
from openguru.sources.routing import SUMMARY_TASK
from openguru.sources.signals import source_indexed, sources_changed

logger = logging.getLogger(__name__)
Status = DataSource.Status


@dataclass(frozen=True)
class ProcessOutcome:
    status: str  # "done" | "failed" | "busy" | "gone" | "skipped" | "crashed"
    stats: dict[str, int]


def _load_request(source: DataSource) -> LoadRequest:
    return LoadRequest(
        source_id=source.pk,
        url=source.url,
        file_path=str(Path(source.file.path)) if source.file else "",
        content=source.content,
        title=source.title,
        crawl_mode=source.crawl_mode,
        options=source.options,
        private=source.private,
        credential=secret_decrypt(source.credential),
        fetch_state=source.fetch_state,
    )


def _progress_sink(source_id: int, token: str) -> Any:
    def save(progress: dict[str, int]) -> None:
        # Also a heartbeat: a claim whose progress stops moving is requeued by beat.
        DataSource.objects.filter(pk=source_id, claimed_by=token).update(
            progress=progress, claimed_at=timezone.now()
        )

    return save


def source_process(
    *,
    source_id: int,
    token: str,
    embedder: Embedder,
    store: VectorStore,
    final_attempt: bool = True,
    heartbeat_seconds: float = 0,
) -> ProcessOutcome:
    """Index the source. Transient failures re-raise (the task retries) unless final_attempt.
    A worker's run keeps its claim alive every `heartbeat_seconds` (`claims.claim_heartbeat`)."""
    claim = source_claim(source_id=source_id, token=token)
    if claim is not Claim.TAKEN:
        _not_taken(source_id, claim)
        return ProcessOutcome(claim.value, {})
    source = DataSource.objects.select_related("guru").get(pk=source_id)
    guru = source.guru
    try:
        with claim_heartbeat(source_id=source_id, token=token, seconds=heartbeat_seconds):
            ingest_disk_check()
            stats, fetch_state = index_source(
                request=_load_request(source),
                target=IndexTarget(guru.collection_name, guru.embedding_dimension, source.pk),
                loader=connector_loader_for(source.type) or loader_for(source.type),
                embedder=embedder,
                store=store,
                on_progress=_progress_sink(source_id, token),
                chunk_size_tokens=settings.CHUNK_SIZE_TOKENS,
                chunk_overlap_tokens=settings.CHUNK_OVERLAP_TOKENS,
                chunk_min_chars=settings.CHUNK_MIN_CHARS,
            )
    except TransientError as exc:
        if not final_attempt:
            source_release(source_id=source_id, token=token, status=Status.NOT_PROCESSED)
            raise
        return _fail(source, token, exc)
    except DomainError as exc:
        return _fail(source, token, exc)
    except DATABASE_DOWN:
        # Nothing can be recorded now. The task hands the claim back once the database answers
        # and its message is delivered again (chunks already stored are skipped then).
        raise
    except Exception as exc:
        logger.exception("source %s failed", source_id)
        return _fail(source, token, exc)
    _succeed(source, token, stats, fetch_state)
    ingestion_record(source_type=source.type, pages=stats.pages_fetched, chunks=stats.chunks_new)
    return ProcessOutcome("done", stats.as_dict())


def _not_taken(source_id: int, claim: Claim) -> None:
    if claim is Claim.CRASHED:
        source_type = DataSource.objects.filter(pk=source_id).values_list("type", flat=True)
        ingestion_failure_record(source_type=source_type.first() or "unknown")
    elif claim is not Claim.BUSY:
        logger.info("source %s: nothing to process (%s)", source_id, claim.value)


def _fail(source: DataSource, token: str, exc: Exception) -> ProcessOutcome:
    ingestion_failure_record(source_type=source.type)
    if disk_full_cause(exc) is not None:  # whoever wrapped it, the disk is what an admin must fix
        user_error = disk_full_error(INDEXING).msg
    elif isinstance(exc, DomainError):
        user_error = exc.msg
    else:
        user_error = "Indexing failed because of an internal error; an admin can see the details."
    # The previous index is left as it was: nothing is deleted on failure.
    source_release(
        source_id=source.pk,
        token=token,
        status=Status.FAILED,
        user_error=user_error[:500],
        error=f"{type(exc).__name__}: {exc}"[:5000],
        crashed_runs=0,  # this run ended as runs should
    )
    return ProcessOutcome("failed", {})


def _succeed(source: DataSource, token: str, stats: IndexStats, fetch_state: dict) -> None:
    source_release(
        source_id=source.pk,
        token=token,
        status=Status.SUCCESS,
        error="",
        user_error="",
        progress=stats.as_dict(),
        last_result=stats.as_dict(),
        chunk_count=stats.chunks_total,
        fetch_state=fetch_state,
        last_indexed_at=timezone.now(),
        reindex_count=source.reindex_count + (1 if source.last_indexed_at else 0),
        crashed_runs=0,
    )
    if stats.changed and source.last_indexed_at:
        sources_changed.send(DataSource, source_ids=[source.pk])
    if llm_configured() and (stats.changed or not source.summary):
        transaction.on_commit(lambda: _send_summary(source.pk))
    source_indexed.send(DataSource, source=source, changed=stats.changed)


def _send_summary(source_id: int) -> None:
    try:
        task_send(SUMMARY_TASK, source_id, queue=LIGHT_QUEUE)
    except OperationalError:
        # The source stays indexed: beat's summary sweep sends it once the broker is back.
        logger.warning("source %s: the broker is unreachable; summary sent later", source_id)
