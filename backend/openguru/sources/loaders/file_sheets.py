"""Spreadsheet loaders: Excel (.xlsx, through openpyxl's streaming read-only mode) with one
document per sheet linked as `book.xlsx#sheet-Name`, and CSV (the standard csv module) as one.
A sheet longer than SPREADSHEET_PART_ROWS rows is cut into documents of that many rows, each
linked by its rows (`book.xlsx#sheet-Name-rows-101-200`, `log.csv#rows-101-200`), so a citation
says where in a long sheet its numbers are.

Each row becomes a line of `header: value` pairs, so a chunk cut from the middle of a long sheet
still says what its numbers are. Rows and cells are counted as they stream in, all sheets
together, and the file fails past SPREADSHEET_MAX_ROWS or SPREADSHEET_MAX_CELLS."""

import csv
import datetime
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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
        parts = parsed(CSV_LABEL, lambda: sheet_parts(_csv_rows(content), _Budget()))
        if not parts:
            raise nothing_to_index(CSV_LABEL)
        documents = _part_documents(parts, title=request.title or path.name, request=request)
        on_progress(LoadProgress(discovered=len(documents), fetched=len(documents)))
        return LoadResult(documents=iter(documents))


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
        # Read-only rows start at row 1 (empty rows above the data come as empty tuples).
        documents += _part_documents(
            sheet_parts(sheet.iter_rows(values_only=True), budget),
            title=f"{title} — sheet {sheet.title}",
            request=request,
            anchor=f"sheet-{quote(sheet.title, safe='')}",
            metadata={"sheet": sheet.title},
        )
    return documents


@dataclass(frozen=True)
class SheetPart:
    first_row: int  # as a spreadsheet program numbers them: from 1, empty rows counted
    last_row: int
    text: str


def _part_documents(
    parts: list[SheetPart],
    *,
    title: str,
    request: LoadRequest,
    anchor: str = "",
    metadata: dict[str, Any] | None = None,
) -> list[Document]:
    """A sheet of one part is cited as a whole; the parts of a longer one by their rows."""
    if len(parts) == 1:
        link = file_link(request, anchor)
        return [Document(title, link, parts[0].text, "text", metadata or {})]
    documents = []
    for part in parts:
        rows = f"rows-{part.first_row}-{part.last_row}"
        documents.append(
            Document(
                title=f"{title}, rows {part.first_row}-{part.last_row}",
                link=file_link(request, f"{anchor}-{rows}" if anchor else rows),
                text=part.text,
                format="text",
                metadata={**(metadata or {}), "rows": [part.first_row, part.last_row]},
            )
        )
    return documents


def sheet_parts(rows: Iterable[Sequence[Any]], budget: _Budget) -> list[SheetPart]:
    """The first row with a value is the header; each later row is `header: value; …`. Every
    SPREADSHEET_PART_ROWS rows with a value make a part."""
    header: list[str] | None = None
    parts: list[SheetPart] = []
    lines: list[str] = []
    first = last = 0
    for number, row in enumerate(rows, start=1):
        budget.take(len(row))  # every row counts, empty ones too: they cost as much to read
        values = [_cell(value) for value in row]
        if not any(values):
            continue
        if header is None:
            header = values
            line = " | ".join(value for value in values if value)
        else:
            line = _row_line(header, values)
        first = first if lines else number
        lines.append(line)
        last = number  # empty rows after the data belong to no part
        if len(lines) == settings.SPREADSHEET_PART_ROWS:
            parts.append(SheetPart(first, last, "\n".join(lines)))
            lines = []
    if lines:
        parts.append(SheetPart(first, last, "\n".join(lines)))
    return parts


def _row_line(header: list[str], values: list[str]) -> str:
    pairs = [
        f"{name or get_column_letter(column)}: {value}"
        for column, (name, value) in enumerate(zip_longest(header, values), start=1)
        if value
    ]
    return "; ".join(pairs)


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
