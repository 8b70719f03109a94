"""PDF loader: one text Document per page of an uploaded file, linked as `file.pdf#page=N`."""

import logging
import time
from pathlib import Path

from django.conf import settings
from pypdf import PasswordType, PdfReader
from pypdf.errors import LimitReachedError, PdfReadError

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)
from openguru.sources.loaders.line_joining import lines_joined

logger = logging.getLogger(__name__)

# The header may follow a little junk (some generators prepend bytes); readers accept 1 KiB.
_MAGIC = b"%PDF-"
_MAGIC_WINDOW = 1024
# What generators write when the author set no title; the file name says more.
_PLACEHOLDER_TITLES = frozenset({"", "untitled", "untitled document", "unknown", "title"})


class PdfLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        path = Path(request.file_path)
        _check_file(path)
        reader = _open(path)
        title = _metadata_title(reader) or request.title or path.name
        # Text is extracted here, not lazily, so "nothing to index" is known before the indexer
        # starts replacing the previous chunks.
        documents = _page_documents(reader, request, title, on_progress)
        if not documents:
            raise DomainError(
                ErrorCode.NOTHING_TO_INDEX,
                "This PDF has no extractable text (scanned pages would need OCR, not supported).",
            )
        return LoadResult(documents=iter(documents))


def _check_file(path: Path) -> None:
    if not path.is_file():
        raise DomainError(ErrorCode.INVALID_FILE, "The uploaded PDF file could not be found.")
    size = path.stat().st_size
    if size > settings.PDF_MAX_BYTES:
        limit_mb = settings.PDF_MAX_BYTES / (1024 * 1024)
        raise DomainError(
            ErrorCode.FILE_TOO_LARGE, f"The PDF is larger than the {limit_mb:g} MB limit."
        )
    with path.open("rb") as handle:
        head = handle.read(_MAGIC_WINDOW)
    if _MAGIC not in head:
        raise DomainError(ErrorCode.INVALID_FILE, "The uploaded file is not a PDF.")


def _open(path: Path) -> PdfReader:
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
            raise DomainError(
                ErrorCode.INVALID_FILE,
                "The PDF is password-protected. Upload a copy without a password.",
            )
        len(reader.pages)  # parses the page tree: a broken file fails here, not mid-way
    except DomainError:
        raise
    except Exception as exc:  # pypdf raises many types on damaged files; all mean the same here
        logger.info("Unreadable PDF %s: %s", path.name, exc)
        raise DomainError(
            ErrorCode.INVALID_FILE, "The PDF could not be read; the file may be damaged."
        ) from exc
    return reader


def _metadata_title(reader: PdfReader) -> str:
    try:
        metadata = reader.metadata
        title = metadata.title if metadata is not None else None
    except (PdfReadError, ValueError, KeyError, TypeError):
        return ""  # a broken info dictionary should not stop the text from being read
    cleaned = " ".join(str(title or "").split())
    return "" if cleaned.casefold() in _PLACEHOLDER_TITLES else cleaned


def _page_documents(
    reader: PdfReader, request: LoadRequest, title: str, on_progress: ProgressCallback
) -> list[Document]:
    progress = LoadProgress(discovered=len(reader.pages))
    on_progress(progress)
    documents: list[Document] = []
    deadline = time.monotonic() + settings.PDF_EXTRACT_MAX_SECONDS
    for number, page in enumerate(reader.pages, start=1):
        if number > 1 and time.monotonic() >= deadline:
            raise DomainError(
                ErrorCode.FILE_TOO_LARGE,
                f"Reading this PDF took longer than {settings.PDF_EXTRACT_MAX_SECONDS:g} seconds"
                f" (at page {number}); split it into smaller files.",
            )
        try:
            # A page's text comes line by line as printed: wrapped sentences are joined back.
            text = lines_joined(page.extract_text() or "").strip()
        except LimitReachedError as exc:
            # A stream that inflates past pypdf's cap is a decompression bomb, not a damaged
            # page: every page sharing it would cost as much again, so the file stops here.
            raise DomainError(
                ErrorCode.FILE_TOO_LARGE,
                f"Page {number} of the PDF is too large to read once decompressed.",
            ) from exc
        except Exception as exc:  # pypdf raises many types on a damaged page; skip just that page
            logger.info("PDF page %d unreadable: %s", number, exc)
            progress.failed += 1
            continue
        progress.fetched += 1
        if text:
            documents.append(
                Document(
                    title=title,
                    link=_page_link(request, number),
                    text=text,
                    format="text",
                    metadata={"page": number},
                )
            )
        on_progress(progress)
    return documents


def _page_link(request: LoadRequest, number: int) -> str:
    if request.private or not request.url:
        return ""
    return f"{request.url}#page={number}"
