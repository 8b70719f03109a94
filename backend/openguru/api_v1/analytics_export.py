"""Gurubase's analytics export (`POST /api/v1/<guru_slug>/analytics/export/`): a guru's questions
of an interval as a CSV, JSON or Excel file, one row per question asked. For admins: a staff
session, the admin token, or a staff user's API key (counted against its rate limit).

The file is streamed as the rows are read (answers/analytics/rows.py), so a year of a big guru
is never held in memory: CSV and JSON row by row, Excel through openpyxl's write-only sheet.

Questions are typed by anonymous visitors, so a cell must never become a formula: CSV cells
that a spreadsheet would read as one get a leading apostrophe (OWASP's advice), and Excel cells
are written as text explicitly.
"""

import csv
import json
import tempfile
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.views import APIView

from openguru.answers.analytics.rows import (
    CHANNEL_FILTERS,
    SOURCE_FILTERS,
    ExportFilters,
    ExportRow,
    export_rows_stream,
)
from openguru.answers.analytics.selectors import INTERVALS, Interval, interval_get
from openguru.core.openapi import errors
from openguru.core.ratelimit import api_key_rate_limit_check
from openguru.core.streaming import streamed
from openguru.gurus.selectors import guru_get
from openguru.integrations.models import APIKey

COLUMNS = (
    "date", "channel", "question", "answer_excerpt", "trust_score", "refused", "out_of_context",
    "low_trust", "sources", "upvotes", "downvotes",
)  # fmt: skip
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BUFFER_CHARS = 64 * 1024


class FiltersInput(serializers.Serializer):
    questions = serializers.ChoiceField(choices=list(CHANNEL_FILTERS), default="all")
    out_of_context = serializers.ChoiceField(choices=list(CHANNEL_FILTERS), default="all")
    referenced_sources = serializers.ChoiceField(choices=list(SOURCE_FILTERS), default="all")


class ExportRowOutput(serializers.Serializer):
    date = serializers.DateTimeField()
    channel = serializers.CharField()
    question = serializers.CharField()
    answer_excerpt = serializers.CharField(allow_blank=True)
    trust_score = serializers.FloatField(allow_null=True)
    refused = serializers.BooleanField()
    out_of_context = serializers.BooleanField()
    low_trust = serializers.BooleanField()
    sources = serializers.ListField(child=serializers.DictField(child=serializers.CharField()))
    upvotes = serializers.IntegerField()
    downvotes = serializers.IntegerField()


class ExportJsonOutput(serializers.Serializer):
    guru = serializers.SlugField()
    interval = serializers.ChoiceField(choices=list(INTERVALS))
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    questions = ExportRowOutput(many=True)


def _record(row: ExportRow) -> dict[str, Any]:
    return {
        "date": row.asked_at.isoformat(),
        "channel": row.channel,
        "question": row.question,
        "answer_excerpt": row.answer_excerpt,
        "trust_score": row.trust_score,
        "refused": row.refused,
        "out_of_context": row.out_of_context,
        "low_trust": row.low_trust,
        "sources": row.sources,
        "upvotes": row.upvotes,
        "downvotes": row.downvotes,
    }


def _flat(row: ExportRow) -> list[Any]:
    record = _record(row)
    record["sources"] = " | ".join(
        f"{s['title']} <{s['url']}>" if s["url"] else s["title"] for s in row.sources
    )
    return [record[column] for column in COLUMNS]


def _csv_safe(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


class _Line:
    """A file-like object csv.writer writes one row to, handing it straight back."""

    def write(self, value: str) -> str:
        return value


def _buffered(parts: Iterable[str]) -> Iterator[bytes]:
    """`parts` encoded in pieces of about BUFFER_CHARS: few enough writes, little memory."""
    pending: list[str] = []
    size = 0
    for part in parts:
        pending.append(part)
        size += len(part)
        if size >= BUFFER_CHARS:
            yield "".join(pending).encode()
            pending, size = [], 0
    if pending:
        yield "".join(pending).encode()


def csv_chunks(rows: Iterable[ExportRow]) -> Iterator[bytes]:
    writer = csv.writer(_Line())

    def lines() -> Iterator[str]:
        yield "\ufeff" + writer.writerow(COLUMNS)  # the BOM makes Excel read UTF-8
        for row in rows:
            yield writer.writerow([_csv_safe(value) for value in _flat(row)])

    return _buffered(lines())


def json_chunks(rows: Iterable[ExportRow], *, guru: str, interval: Interval) -> Iterator[bytes]:
    def parts() -> Iterator[str]:
        head = json.dumps(
            {
                "guru": guru,
                "interval": interval.name,
                "start": interval.start.isoformat(),
                "end": interval.end.isoformat(),
            },
            ensure_ascii=False,
        )
        yield head[:-1] + ', "questions": ['
        separator = ""
        for row in rows:
            yield separator + json.dumps(_record(row), ensure_ascii=False)
            separator = ", "
        yield "]}"

    return _buffered(parts())


def xlsx_chunks(rows: Iterable[ExportRow]) -> Iterator[bytes]:
    """openpyxl's write-only sheet keeps its rows in a temporary file; the workbook is zipped
    into another, which is then read back in pieces."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet("questions")
    sheet.append(COLUMNS)
    for row in rows:
        cells = []
        for value in _flat(row):
            cell = WriteOnlyCell(sheet, value=value)
            if isinstance(value, str):
                cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)
                cell.data_type = "s"  # text, never a formula
            cells.append(cell)
        sheet.append(cells)
    with tempfile.TemporaryFile() as out:
        book.save(out)
        out.seek(0)
        while chunk := out.read(BUFFER_CHARS):
            yield chunk


def write_csv(rows: Iterable[ExportRow]) -> bytes:
    return b"".join(csv_chunks(rows))


def write_json(rows: Iterable[ExportRow], *, guru: str, interval: Interval) -> bytes:
    return b"".join(json_chunks(rows, guru=guru, interval=interval))


def write_xlsx(rows: Iterable[ExportRow]) -> bytes:
    return b"".join(xlsx_chunks(rows))


class AnalyticsExportApi(APIView):
    class InputSerializer(serializers.Serializer):
        export_type = serializers.ChoiceField(choices=["xlsx", "csv", "json"], default="xlsx")
        interval = serializers.ChoiceField(choices=list(INTERVALS), default="today")
        filters = FiltersInput(required=False)

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # The answer is a file whatever the Accept header says; errors are JSON.
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        operation_id="v1_analytics_export",
        tags=["analytics"],
        summary="Export a guru's questions (CSV, JSON or Excel)",
        description="One row per question asked: answered ones with their trust score, cited "
        "sources and votes, and refused ones. Admins only (a staff user's API key works).",
        request=InputSerializer,
        responses={
            (200, "application/json"): OpenApiResponse(ExportJsonOutput),
            (200, "text/csv"): OpenApiResponse(str, description="A header row, then the rows."),
            (200, CONTENT_TYPES["xlsx"]): OpenApiResponse(bytes, description="One sheet."),
            **errors(400, 401, 403, 404, 429),
        },
        examples=[
            OpenApiExample(
                "csv of the week",
                value={"export_type": "csv", "interval": "7d", "filters": {"questions": "all"}},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, guru_slug: str) -> StreamingHttpResponse:
        if isinstance(request.auth, APIKey):
            api_key_rate_limit_check(key_id=request.auth.pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru = guru_get(slug=guru_slug)
        interval = interval_get(name=data.validated_data["interval"])
        filters = ExportFilters(**data.validated_data.get("filters", {}))
        rows = export_rows_stream(guru=guru, interval=interval, filters=filters)
        kind = data.validated_data["export_type"]
        if kind == "csv":
            chunks = csv_chunks(rows)
        elif kind == "json":
            chunks = json_chunks(rows, guru=guru.slug, interval=interval)
        else:
            chunks = xlsx_chunks(rows)
        response = StreamingHttpResponse(
            streamed(chunks, request=request), content_type=CONTENT_TYPES[kind]
        )
        stamp = datetime.now(UTC).strftime("%Y%m%d")
        name = f"{guru.slug}-questions-{interval.name}-{stamp}.{kind}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
