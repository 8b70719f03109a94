"""The kinds of file an admin can upload as a source: which type each becomes, how it is
recognised (its extension), and how it is served back as a citation target."""

from dataclasses import dataclass
from pathlib import PurePath

from openguru.sources.models import DataSource

Type = DataSource.Type


@dataclass(frozen=True)
class FileKind:
    type: str
    label: str  # what a person calls it, in messages
    extensions: tuple[str, ...]
    content_type: str


FILE_KINDS = (
    FileKind(Type.PDF, "PDF", (".pdf",), "application/pdf"),
    FileKind(
        Type.DOCX,
        "Word document",
        (".docx",),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    FileKind(
        Type.PPTX,
        "PowerPoint presentation",
        (".pptx",),
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ),
    FileKind(
        Type.XLSX,
        "Excel workbook",
        (".xlsx",),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    FileKind(Type.CSV, "CSV file", (".csv",), "text/csv"),
    FileKind(Type.HTML, "HTML file", (".html", ".htm"), "text/html"),
    # Served as plain text: a browser shows the source instead of offering a download.
    FileKind(Type.MARKDOWN, "Markdown file", (".md", ".markdown"), "text/plain; charset=utf-8"),
    FileKind(Type.EPUB, "EPUB book", (".epub",), "application/epub+zip"),
)
FILE_TYPES = frozenset(kind.type for kind in FILE_KINDS)
UPLOADABLE = "PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), CSV, HTML, Markdown and EPUB"


def file_kind_for_name(name: str) -> FileKind | None:
    suffix = PurePath(name).suffix.lower()
    return next((kind for kind in FILE_KINDS if suffix in kind.extensions), None)


def file_kind_for_type(source_type: str) -> FileKind | None:
    return next((kind for kind in FILE_KINDS if kind.type == source_type), None)
