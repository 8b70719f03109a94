"""Restore a guru from `guru_export`'s archive: its rows get new ids (nothing of another guru is
ever overwritten), uploaded files go back to storage, and the chunks are embedded again by the
configured embedder through the indexing path into a new collection. Sources that had no
chunks (never indexed, or failed) are queued for a normal indexing run. For a guru whose rows
came back with a database dump, `guru_vectors_restore` embeds the archive's chunks into its own
collection instead."""

import json
import logging
import zipfile
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from kombu.exceptions import OperationalError

from openguru.answers.models import Binge, Question
from openguru.answers.services import question_upvotes_recount
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.gurus.services import EDITABLE_FIELDS, guru_create
from openguru.ops.backup_export import DOCUMENT, FORMAT, VERSION, file_entry
from openguru.providers.embeddings.base import Embedder
from openguru.providers.vectorstore.base import VectorStore
from openguru.sources.chunking.base import Chunk
from openguru.sources.indexing import IndexTarget, index_chunks
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)
Row = dict[str, Any]


def _read(archive: zipfile.ZipFile) -> dict[str, Any]:
    try:
        document = json.loads(archive.read(DOCUMENT))
    except (KeyError, ValueError) as exc:
        raise DomainError(ErrorCode.INVALID_INPUT, "Not a guru export archive.") from exc
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise DomainError(ErrorCode.INVALID_INPUT, f"Not a {FORMAT} version {VERSION} archive.")
    return document


def _save(
    row: Row, *, pk: Any = None, m2m: dict[str, list[Any]] | None = None, **fields: Any
) -> Any:
    """Save one exported row as a new object (its timestamps as they were), fields replaced."""
    record = {"model": row["model"], "pk": pk, "fields": {**row["fields"], **fields, **(m2m or {})}}
    (deserialized,) = serializers.deserialize("python", [record])
    deserialized.save()
    return deserialized.object


@dataclass(frozen=True)
class RestoreProviders:
    """What a restore embeds the archived chunks with and stores them in."""

    embedder: Embedder
    store: VectorStore


def _guru(row: Row, slug: str, providers: RestoreProviders) -> Guru:
    fields = row["fields"]
    guru = guru_create(
        slug=slug, name=fields["name"], embedder=providers.embedder, store=providers.store
    )
    for name in (*EDITABLE_FIELDS, "summary"):
        # A setting added since the archive was written keeps the new guru's default.
        setattr(guru, name, fields.get(name, getattr(guru, name)))
    guru.save()
    return guru


def _restore_file(archive: zipfile.ZipFile, row: Row, saved: list[str]) -> tuple[str, str]:
    """Put the upload back under its old name when free; returns its old and new address."""
    old_name = row["fields"]["file"]
    data = archive.read(file_entry(row["pk"], old_name))
    new_name = default_storage.save(old_name, ContentFile(data))
    saved.append(new_name)
    return default_storage.url(old_name), default_storage.url(new_name)


def _relinked(value: Any, old: str, new: str) -> Any:
    """Chunk metadata and addresses that named the upload's old address name its new one."""
    if old == new:
        return value
    return json.loads(json.dumps(value).replace(json.dumps(old)[1:-1], json.dumps(new)[1:-1]))


def _sources(
    archive: zipfile.ZipFile, document: dict[str, Any], guru: Guru, saved: list[str]
) -> tuple[dict[int, int], list[tuple[DataSource, list[Row]]]]:
    ids: dict[int, int] = {}
    to_embed: list[tuple[DataSource, list[Row]]] = []
    for row in document["sources"]:
        chunks = document["chunks"].get(str(row["pk"]), [])
        extra: dict[str, Any] = {"guru": guru.pk, "claimed_by": "", "claimed_at": None}
        if row["fields"]["file"]:
            old_url, new_url = _restore_file(archive, row, saved)
            extra["file"] = saved[-1]
            extra["url"] = _relinked(row["fields"]["url"], old_url, new_url)
            chunks = _relinked(chunks, old_url, new_url)
        if not chunks:
            extra |= {"status": DataSource.Status.NOT_PROCESSED, "fetch_state": {}}
        source = _save(row, **extra)
        ids[row["pk"]] = source.pk
        to_embed.append((source, chunks))
    return ids, to_embed


def _embed(guru: Guru, source: DataSource, chunks: list[Row], providers: RestoreProviders) -> None:
    stats = index_chunks(
        chunks=[Chunk(c["text"], c["hash"], c["type"], c["metadata"]) for c in chunks],
        target=IndexTarget(guru.collection_name, guru.embedding_dimension, source.pk),
        embedder=providers.embedder,
        store=providers.store,
    )
    DataSource.objects.filter(pk=source.pk).update(chunk_count=stats.chunks_total)


def _queue(source_id: int) -> None:
    from openguru.sources.tasks import source_process_task

    try:
        source_process_task.delay(source_id)
    except OperationalError:  # beat's pending sweep sends it once the broker is back
        logger.warning("source %s: the broker is unreachable; it will be sent later", source_id)


def _owners(document: dict[str, Any]) -> dict[str, Any]:
    names = document["owners"]
    users = get_user_model().objects.filter(username__in=names.values())
    by_name = {user.get_username(): user.pk for user in users}
    return {old: by_name.get(name) for old, name in names.items()}


def _conversations(document: dict[str, Any], guru: Guru, sources: dict[int, int]) -> None:
    """Binges keep their ids (sessions stay addressable); questions, votes and refusals get
    new ones. Roots and parents point at questions, so they are set once all exist."""
    owners = _owners(document)
    for row in document["binges"]:
        if Binge.objects.filter(pk=row["pk"]).exists():
            raise DomainError(ErrorCode.CONFLICT, f"Session {row['pk']} already exists.")
        owner = owners.get(str(row["fields"]["owner"]))
        _save(row, pk=row["pk"], guru=guru.pk, root_question=None, owner=owner)
    same_model = document["guru"]["fields"]["embedding_model"] == guru.embedding_model
    questions: dict[int, int] = {}
    for row in document["questions"]:
        cited = [sources[pk] for pk in row["fields"]["cited_sources"] if pk in sources]
        vector = row["fields"]["vector"] if same_model else None
        question = _save(
            row, guru=guru.pk, parent=None, vector=vector, m2m={"cited_sources": cited}
        )
        questions[row["pk"]] = question.pk
    for row in document["questions"]:
        if row["fields"]["parent"] in questions:
            Question.objects.filter(pk=questions[row["pk"]]).update(
                parent_id=questions[row["fields"]["parent"]]
            )
    for row in document["binges"]:
        root = questions.get(row["fields"]["root_question"])
        Binge.objects.filter(pk=row["pk"]).update(root_question_id=root)
    for row in document["votes"]:
        _save(row, question=questions[row["fields"]["question"]], guru=guru.pk)
    question_upvotes_recount(question_ids=list(questions.values()))
    for row in document["out_of_context"]:
        _save(row, guru=guru.pk)
    for row in document["widget_ids"]:
        _save(row, guru=guru.pk)


def guru_import(*, archive_path: Path, providers: RestoreProviders, slug: str = "") -> Guru:
    with zipfile.ZipFile(archive_path) as archive:
        document = _read(archive)
        slug = slug or document["guru"]["fields"]["slug"]
        with transaction.atomic():
            guru = _guru(document["guru"], slug, providers)
            saved: list[str] = []  # files put back, removed again if the import fails
            try:
                sources, restored = _sources(archive, document, guru, saved)
                _conversations(document, guru, sources)
                for source, chunks in restored:
                    if chunks:
                        _embed(guru, source, chunks, providers)
                    else:
                        transaction.on_commit(partial(_queue, source.pk))
            except BaseException:
                providers.store.drop_collection(guru.collection_name)
                for name in saved:
                    default_storage.delete(name)
                raise
    return guru


def guru_vectors_restore(*, archive_path: Path, providers: RestoreProviders) -> Guru:
    """Rebuild the collection of a guru restored from a database dump (scripts/restore.sh): the
    dump holds every row but no vectors, so the archive's chunks are embedded again into the
    guru's collection; nothing is fetched. A dump keeps ids, so each source gets the archived
    chunks of the same id and address; one the archive has no chunks for but that had some
    (added after the archive was written) is queued for a normal indexing run."""
    with zipfile.ZipFile(archive_path) as archive:
        document = _read(archive)
    slug = document["guru"]["fields"]["slug"]
    guru = Guru.objects.filter(slug=slug).first()
    if guru is None:
        raise DomainError(ErrorCode.GURU_NOT_FOUND, f"No guru named '{slug}' to restore into.")
    archived_urls = {row["pk"]: row["fields"]["url"] for row in document["sources"]}
    embedder, store = providers.embedder, providers.store
    configured = (embedder.model_name, embedder.dimension)
    if (guru.embedding_model, guru.embedding_dimension) != configured:
        # Embedded again with the configured model: saved questions' vectors are of the old one.
        guru.embedding_model, guru.embedding_dimension = embedder.model_name, embedder.dimension
        guru.save(update_fields=["embedding_model", "embedding_dimension"])
        Question.objects.filter(guru=guru).update(vector=None)
    store.drop_collection(guru.collection_name)  # rebuilt whole: nothing stale stays
    store.create_collection(guru.collection_name, dimension=guru.embedding_dimension)
    for source in DataSource.objects.filter(guru=guru).order_by("pk"):
        same = archived_urls.get(source.pk) == source.url
        chunks = document["chunks"].get(str(source.pk), []) if same else []
        if chunks:
            _embed(guru, source, chunks, providers)
        elif source.chunk_count:
            _queue(source.pk)
    return guru
