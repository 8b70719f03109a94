"""Spreadsheet loaders: Excel (.xlsx, through openpyxl's streaming read-only mode) with one
document per sheet linked as `book.xlsx#sheet-Name`, and CSV (the standard csv module) as one.

Each row becomes a line of `header: value` pairs, so a chunk cut from the middle of a long sheet
still says what its numbers are. Rows and cells are counted as they stream in, all sheets
together, and the file fails past SPREADSHEET_MAX_ROWS or SPREADSHEET_MAX_CELLS."""

import csv
import datetime
import io
from collections.abc import Iterable, Sequence
from itertools import zip_longest
from pathlib import Path
from typing import Any
from urllib.parse import quote

import openpyxl
from django.conf import settings
from openpyxl.utils import get_column_letter

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)
from openguru.sources.loaders.file_common import (
    check_file,
    check_zip,
    clean_text,
    file_link,
    nothing_to_index,
    parsed,
    read_text,
)

XLSX_LABEL = "Excel workbook"
CSV_LABEL = "CSV file"
_SNIFF_CHARS = 64 * 1024


class XlsxLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        path = Path(request.file_path)
        check_file(path, XLSX_LABEL)
        check_zip(path, XLSX_LABEL)
        book = parsed(
            XLSX_LABEL, lambda: openpyxl.load_workbook(path, read_only=True, data_only=True)
        )
        try:
            title = clean_text(book.properties.title or "") or request.title or path.name
            documents = parsed(XLSX_LABEL, lambda: _sheet_documents(book, title, request))
        finally:
            book.close()  # read-only mode keeps the archive open until told
        on_progress(LoadProgress(discovered=len(documents), fetched=len(documents)))
        if not documents:
            raise nothing_to_index(XLSX_LABEL)
        return LoadResult(documents=iter(documents))


class CsvLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        path = Path(request.file_path)
        check_file(path, CSV_LABEL)
        content = read_text(path, CSV_LABEL)
        rows = parsed(CSV_LABEL, lambda: sheet_text(_csv_rows(content), _Budget()))
        if not rows:
            raise nothing_to_index(CSV_LABEL)
        on_progress(LoadProgress(discovered=1, fetched=1))
        title = request.title or path.name
        document = Document(title=title, link=file_link(request), text=rows, format="text")
        return LoadResult(documents=iter([document]))


class _Budget:
    def __init__(self) -> None:
        self.rows = 0
        self.cells = 0

    def take(self, cells: int) -> None:
        self.rows += 1
        self.cells += cells
        if self.rows > settings.SPREADSHEET_MAX_ROWS:
            raise _too_large(f"{settings.SPREADSHEET_MAX_ROWS:,} rows")
        if self.cells > settings.SPREADSHEET_MAX_CELLS:
            raise _too_large(f"{settings.SPREADSHEET_MAX_CELLS:,} cells")


def _too_large(what: str) -> DomainError:
    return DomainError(
        ErrorCode.FILE_TOO_LARGE,
        f"The spreadsheet has more than {what}, the limit; split it into smaller files.",
    )


def _sheet_documents(book: Any, title: str, request: LoadRequest) -> list[Document]:
    budget = _Budget()
    documents = []
    for sheet in book.worksheets:
        text = sheet_text(sheet.iter_rows(values_only=True), budget)
        if text:
            documents.append(
                Document(
                    title=f"{title} — sheet {sheet.title}",
                    link=file_link(request, f"sheet-{quote(sheet.title, safe='')}"),
                    text=text,
                    format="text",
                    metadata={"sheet": sheet.title},
                )
            )
    return documents


def sheet_text(rows: Iterable[Sequence[Any]], budget: _Budget) -> str:
    """The first row with a value is the header; each later row is `header: value; …`."""
    header: list[str] | None = None
    lines = []
    for row in rows:
        budget.take(len(row))  # every row counts, empty ones too: they cost as much to read
        values = [_cell(value) for value in row]
        if not any(values):
            continue
        if header is None:
            header = values
            lines.append(" | ".join(value for value in values if value))
            continue
        pairs = [
            f"{name or get_column_letter(column)}: {value}"
            for column, (name, value) in enumerate(zip_longest(header, values), start=1)
            if value
        ]
        lines.append("; ".join(pairs))
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return clean_text(str(value))


def _csv_rows(content: str) -> Iterable[list[str]]:
    try:
        dialect: Any = csv.Sniffer().sniff(content[:_SNIFF_CHARS], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel  # one column, or too little to tell: the common case
    # strict: an unclosed quote fails the file instead of swallowing every row after it.
    return csv.reader(io.StringIO(content), dialect, strict=True)
