"""Writes on data sources: create, delete, re-index, and the processing run a worker performs."""

import logging
import uuid
from datetime import datetime
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from openguru.core.audit.services import audit_fields, audit_record
from openguru.core.crypto import secret_encrypt
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.task_send import task_send
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import VectorStore
from openguru.sources.models import DataSource
from openguru.sources.routing import SOURCE_TASK
from openguru.sources.signals import sources_changed
from openguru.sources.uploads import upload_store
from openguru.sources.validation import (
    validate_source_input,
    validate_source_options,
    validate_upload,
)
from openguru.sources.versions import version_label_clean

logger = logging.getLogger(__name__)


# The source types read with a token of their own (`DataSource.credential`).
TOKEN_TYPES = frozenset(
    {
        DataSource.Type.GITHUB_ISSUES,
        DataSource.Type.CONFLUENCE,
        DataSource.Type.JIRA,
        DataSource.Type.ZENDESK,
    }
)

# What the audit log keeps of a source (never its pasted content).
AUDITED_FIELDS = ["type", "url", "title", "crawl_mode", "options", "private", "version"]


def _enqueue(source_id: int) -> None:
    transaction.on_commit(lambda: _send(source_id))


def _send(source_id: int) -> None:
    try:
        task_send(SOURCE_TASK, source_id)
    except OperationalError:
        # The broker is down. The source is saved as queued, and beat's pending sweep sends it
        # once the broker is back; the caller still gets its source, not an error.
        logger.warning("source %s: the broker is unreachable; it will be sent later", source_id)


def source_create(
    *,
    guru: Guru,
    type: str,
    url: str = "",
    title: str = "",
    content: str = "",
    crawl_mode: str = "single",
    options: dict[str, Any] | None = None,
    private: bool = False,
    token: str = "",
    version: str = "",
) -> DataSource:
    """`token`: a connector's credential (TOKEN_TYPES), stored encrypted, never shown again.
    `version`: the documentation version it belongs to ("": every version)."""
    url = validate_source_input(type=type, url=url, content=content, crawl_mode=crawl_mode)
    url, options = validate_source_options(type=type, url=url, options=options or {}, token=token)
    if token.strip() and type not in TOKEN_TYPES:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            f"Only a {', '.join(sorted(TOKEN_TYPES))} source takes a token.",
        )
    if not url:  # text and FAQ sources have no address of their own
        url = f"{type}://{uuid.uuid4().hex}"
    source = DataSource(
        guru=guru,
        type=type,
        url=url,
        title=title,
        content=content,
        crawl_mode=crawl_mode,
        options=options,
        private=private,
        credential=secret_encrypt(token.strip()),
        version=version_label_clean(version),
    )
    return _save_new(source)


def source_create_upload(
    *,
    guru: Guru,
    upload: UploadedFile,
    title: str = "",
    private: bool = False,
    version: str = "",
) -> DataSource:
    kind = validate_upload(upload)
    source = DataSource(
        guru=guru,
        type=kind.type,
        url=f"{kind.type}://{uuid.uuid4().hex}/{upload.name}",
        title=title or str(upload.name),
        private=private,
        version=version_label_clean(version),
    )
    upload_store(source=source, upload=upload)
    source.url = source.file.url
    return _save_new(source)


def _save_new(source: DataSource) -> DataSource:
    try:
        with transaction.atomic():
            source.save()
    except IntegrityError as exc:
        if source.file:
            source.file.delete(save=False)
        raise DomainError(
            ErrorCode.CONFLICT, "This guru already has a source with that URL."
        ) from exc
    _audit("source.create", source, after=audit_fields(source, AUDITED_FIELDS))
    _enqueue(source.pk)
    return source


def _audit(
    action: str,
    source: DataSource,
    *,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    label = source.title or source.url
    audit_record(
        action=action,
        target=source,
        target_label=label,
        guru=source.guru,
        before=before,
        after=after,
    )


def source_credential_replace(*, source: DataSource, token: str) -> DataSource:
    """Put a new token in place (or none: "") and sync again with it."""
    source.credential = secret_encrypt(token.strip())
    source.save(update_fields=["credential", "updated_at"])
    # The audit row says the token changed, never what it is.
    _audit("source.credential_replace", source, after={"token_set": bool(token.strip())})
    return source_reindex(source=source)


def source_reindex(*, source: DataSource) -> DataSource:
    source.status = DataSource.Status.NOT_PROCESSED
    source.user_error = ""
    source.crashed_runs = 0  # asked for again: its runs get a fresh allowance of crashes
    source.save(update_fields=["status", "user_error", "crashed_runs", "updated_at"])
    _audit("source.reindex", source)
    _enqueue(source.pk)
    return source


def source_delete(*, source: DataSource, store: VectorStore) -> None:
    guru_id, collection, source_id = source.guru_id, source.guru.collection_name, source.pk
    stored_file = source.file if source.file else None
    sources_changed.send(DataSource, source_ids=[source_id])
    _audit("source.delete", source, before=audit_fields(source, AUDITED_FIELDS))
    source.delete()

    def _cleanup() -> None:
        _source_chunks_delete(
            guru_id=guru_id, collection=collection, source_id=source_id, store=store
        )
        if stored_file is not None:
            stored_file.delete(save=False)

    transaction.on_commit(_cleanup)


def _source_chunks_delete(
    *, guru_id: int, collection: str, source_id: int, store: VectorStore
) -> None:
    """Delete a deleted source's chunks from the collection its guru keeps. Under the guru's row
    lock: a move to a new collection (`guru_reanalyze`) holds it while it copies, so the chunks
    are deleted from the copy once it is done, not left behind in it."""
    with transaction.atomic():
        current = (
            Guru.objects.select_for_update()
            .filter(pk=guru_id)
            .values_list("collection_name", flat=True)
            .first()
        )
        for name in dict.fromkeys(filter(None, (current, collection))):
            store.delete(name, source_id=source_id)


def sources_reindex_guru(*, guru: Guru) -> int:
    """Queue every source of a guru (after its embedding model changed)."""
    ids = list(guru.sources.values_list("pk", flat=True))
    guru.sources.update(
        status=DataSource.Status.NOT_PROCESSED, crashed_runs=0, updated_at=timezone.now()
    )
    for source_id in ids:
        _enqueue(source_id)
    return len(ids)


def sources_touch(*, source_ids: list[int], now: datetime) -> None:
    """Mark the sources as just sent (`.update()` skips auto_now), so the next sweeps leave them
    to this message."""
    DataSource.objects.filter(pk__in=source_ids).update(updated_at=now)


def sources_resync_mark(*, source_ids: list[int], now: datetime) -> None:
    """Indexed sources due for a resync, back to NOT_PROCESSED. With updated_at (`.update()` skips
    auto_now): without it the pending sweep would resend them at once."""
    DataSource.objects.filter(pk__in=source_ids, status=DataSource.Status.SUCCESS).update(
        status=DataSource.Status.NOT_PROCESSED, updated_at=now
    )
