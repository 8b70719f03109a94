"""What every uploaded-file loader shares: the size cap, the zip-bomb check of the zip-based
formats, text decoding, heading anchors, and the citation link (none for a private file)."""

import codecs
import logging
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import lxml.html
from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.anchors import github_slug
from openguru.sources.loaders.base import LoadRequest

logger = logging.getLogger(__name__)
T = TypeVar("T")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BINARY_WINDOW = 8192
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def check_file(path: Path, label: str) -> None:
    if not path.is_file():
        raise DomainError(ErrorCode.INVALID_FILE, f"The uploaded {label} could not be found.")
    if path.stat().st_size > settings.FILE_MAX_BYTES:
        limit_mb = settings.FILE_MAX_BYTES / (1024 * 1024)
        raise DomainError(
            ErrorCode.FILE_TOO_LARGE, f"The {label} is larger than the {limit_mb:g} MB limit."
        )


def check_zip(path: Path, label: str) -> None:
    """Refuse a zip container that is not one, or that would unpack past the limits. The sizes
    checked are the ones the archive declares; Python's zipfile never inflates a member past
    its declared size (it fails the CRC check instead), so they bound what the parsers read."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        logger.info("Not a zip container %s: %s", path.name, exc)
        raise DomainError(
            ErrorCode.INVALID_FILE, f"The file is not a valid {label}; it may be damaged."
        ) from exc
    if len(members) > settings.FILE_ZIP_MAX_MEMBERS:
        raise DomainError(
            ErrorCode.FILE_TOO_LARGE,
            f"The {label} holds more than {settings.FILE_ZIP_MAX_MEMBERS:,} parts; "
            "it is refused as a possible zip bomb.",
        )
    unpacked = sum(member.file_size for member in members)
    if unpacked > settings.FILE_UNZIPPED_MAX_BYTES:
        limit_mb = settings.FILE_UNZIPPED_MAX_BYTES / (1024 * 1024)
        raise DomainError(
            ErrorCode.FILE_TOO_LARGE,
            f"The {label} would unpack to more than {limit_mb:g} MB; "
            "it is refused as a possible zip bomb.",
        )


def parsed(label: str, parse: Callable[[], T]) -> T:
    """`parse()`, with whatever a parser raises on a damaged file said in words."""
    try:
        return parse()
    except DomainError:
        raise
    except Exception as exc:  # the parsers raise many types on damaged files; all mean the same
        logger.info("Unreadable %s: %s", label, exc)
        raise DomainError(
            ErrorCode.INVALID_FILE, f"The {label} could not be read; the file may be damaged."
        ) from exc


def own_title(read: Callable[[], str | None], label: str) -> str:
    """The title a file's metadata gives, or "" when that part is damaged: the body may still
    be whole, and the file's name stands in for its title."""
    try:
        return clean_text(read() or "")
    except Exception as exc:  # the parsers raise many types on a damaged part; all mean the same
        logger.info("Unreadable %s properties: %s", label, exc)
        return ""


def read_text(path: Path, label: str) -> str:
    """A text file's content: UTF-8 (with or without a BOM) or UTF-16 with a BOM; else Windows'
    code page, which spreadsheet programs still write CSV in. A binary file is refused."""
    body = path.read_bytes()
    if body.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return parsed(label, lambda: body.decode("utf-16"))
    if b"\x00" in body[:_BINARY_WINDOW]:
        raise DomainError(ErrorCode.INVALID_FILE, "The file holds binary data, not text.")
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return body.decode("cp1252", errors="replace")


def clean_text(text: str) -> str:
    """One line of readable text: PostgreSQL cannot store NUL, XML forbids most control
    characters, and runs of spaces and line breaks inside a paragraph mean nothing."""
    return " ".join(_CONTROL.sub(" ", text).split())


def nothing_to_index(label: str) -> DomainError:
    return DomainError(ErrorCode.NOTHING_TO_INDEX, f"This {label} has no text to index.")


def file_link(request: LoadRequest, anchor: str = "") -> str:
    """Where a citation points: the served file, at `anchor`; nothing for a private file."""
    if request.private or not request.url:
        return ""
    return f"{request.url}#{anchor}" if anchor else request.url


class HeadingIds:
    """Unique heading anchors across one file (a whole book for EPUB): a heading keeps the
    anchor the file gives it (if `keep_own` and no earlier heading took it); else it gets a
    GitHub-style slug of its text."""

    def __init__(self, *, keep_own: bool = True) -> None:
        self._seen: dict[str, int] = {}
        self._keep_own = keep_own

    def unique(self, wanted: str) -> str:
        base = wanted or "section"
        count = self._seen.get(base, 0)
        self._seen[base] = count + 1
        anchor = base if count == 0 else f"{base}-{count}"
        self._seen.setdefault(anchor, 1)
        return anchor

    def assign(self, fragment: str) -> tuple[str, str]:
        """`fragment` with an id on every heading, and the first heading's id ("" if none)."""
        if not fragment:
            return "", ""
        root = lxml.html.fragment_fromstring(fragment, create_parent="div")
        first = ""
        for heading in root.iter(*_HEADINGS):
            text = " ".join(heading.text_content().split())
            own = _own_anchor(heading) if self._keep_own else ""
            anchor = self.unique(own or github_slug(text))
            heading.set("id", anchor)
            first = first or anchor
        return str(lxml.html.tostring(root, encoding="unicode")), first


def _own_anchor(heading: lxml.html.HtmlElement) -> str:
    """The anchor the file already gives a heading: its id, an id or name inside it, or the id
    of the section it opens (as Sphinx writes them)."""
    for element in heading.iter():
        if element.get("id") or element.get("name"):
            return str(element.get("id") or element.get("name"))
    parent = heading.getparent()
    opens_parent = (
        parent is not None
        and parent.tag in ("section", "div", "article")
        and next(parent.iter(*_HEADINGS), None) is heading
    )
    return str(parent.get("id") or "") if opens_parent and parent is not None else ""
