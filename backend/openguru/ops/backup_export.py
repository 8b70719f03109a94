"""A guru as one zip file: its rows (sources, questions and answers, binges, votes, refusals,
widget ids), its sources' chunks and uploaded files. No vectors: an import embeds the chunks
again through the indexing path, so the archive does not depend on the vector store or on the
embedding model. Integrations are left out: their tokens are encrypted with this deployment's
key, and each holds an API key of its own (set them up again after an import). For the same
reason a source's token is left out: add it again after an import."""

import json
import shutil
import sys
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePath
from typing import Any

from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model

from openguru.answers.models import Binge, OutOfContextQuestion, Question, Vote
from openguru.gurus.models import Guru
from openguru.integrations.models import WidgetId
from openguru.providers.vectorstore.base import VectorStore
from openguru.sources.models import DataSource

FORMAT = "openguru-guru-export"
VERSION = 1
DOCUMENT = "guru.json"


@dataclass(frozen=True)
class ExportSummary:
    sources: int
    chunks: int
    files: int
    questions: int


def rows(objects: Iterable[Model]) -> list[dict[str, Any]]:
    """Django's own serialization: {"model", "pk", "fields"}, foreign keys as primary keys."""
    return list(serializers.serialize("python", objects))


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but times to the microsecond (it keeps milliseconds): a restored row
    sorts exactly where it did."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime):
            return o.isoformat()
        return super().default(o)


def _without_credential(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "fields": {**row["fields"], "credential": ""}}


def file_entry(source_pk: int, name: str) -> str:
    return f"files/{source_pk}/{PurePath(name).name}"


def _chunks(guru: Guru, source: DataSource, store: VectorStore) -> list[dict[str, Any]]:
    hits = store.source_chunks(guru.collection_name, source_id=source.pk, limit=sys.maxsize)
    hits.sort(key=lambda hit: hit.chunk_hash)  # the same archive for the same index
    return [
        {"text": h.text, "hash": h.chunk_hash, "type": h.type, "metadata": h.metadata} for h in hits
    ]


def guru_export(*, guru: Guru, out: Path, store: VectorStore) -> ExportSummary:
    sources = list(DataSource.objects.filter(guru=guru).order_by("pk"))
    binges = list(Binge.objects.filter(guru=guru).select_related("owner"))
    questions = list(Question.objects.filter(guru=guru).order_by("created_at", "pk"))
    chunks = {str(source.pk): _chunks(guru, source, store) for source in sources}
    document = {
        "format": FORMAT,
        "version": VERSION,
        "guru": rows([guru])[0],
        "sources": [_without_credential(row) for row in rows(sources)],
        "chunks": chunks,
        "binges": rows(binges),
        # Binge owners by name: user ids differ between databases.
        "owners": {str(b.owner_id): b.owner.get_username() for b in binges if b.owner},
        "questions": rows(questions),
        "votes": rows(Vote.objects.filter(question__guru=guru).order_by("pk")),
        "out_of_context": rows(OutOfContextQuestion.objects.filter(guru=guru).order_by("pk")),
        "widget_ids": rows(WidgetId.objects.filter(guru=guru).order_by("pk")),
    }
    files = 0
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(DOCUMENT, json.dumps(document, cls=_Encoder, indent=1))
        for source in sources:
            if source.file:
                entry = file_entry(source.pk, source.file.name or "")
                with source.file.open("rb") as stored, archive.open(entry, "w") as copy:
                    shutil.copyfileobj(stored, copy)
                files += 1
    return ExportSummary(
        sources=len(sources),
        chunks=sum(len(c) for c in chunks.values()),
        files=files,
        questions=len(questions),
    )
