"""A Confluence page into documents: its storage-format body (XHTML with `ac:`/`ri:` macros) as
HTML the ordinary HTML chunker cuts at headings, each heading carrying the anchor Confluence
gives it; and its PDF attachments read by the PDF loader, a document per page (`#page=N`)."""

import html
import logging
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from django.conf import settings

from openguru.core.errors import DomainError
from openguru.sources.connectors.confluence_api import CLOUD, Attachment
from openguru.sources.loaders.base import Document, LoadRequest
from openguru.sources.loaders.pdf import PdfLoader

logger = logging.getLogger(__name__)

_CODE_BODY = re.compile(
    r"<ac:plain-text-body>\s*<!\[CDATA\[(.*?)\]\]>\s*</ac:plain-text-body>", re.DOTALL
)
_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.DOTALL)
# Macro settings and task states are markup, not text a reader sees.
_HIDDEN = re.compile(
    r"<(ac:parameter|ac:task-id|ac:task-status|ac:placeholder)\b[^>]*>.*?</\1>", re.DOTALL
)
_HEADING = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
_SPACES = re.compile(r"\s+")


def storage_html(storage: str, *, title: str, deployment: str) -> str:
    """The page body as plain HTML, its headings given the ids Confluence links them by."""
    text = _CODE_BODY.sub(lambda m: f"<pre>{html.escape(m.group(1))}</pre>", storage)
    text = _CDATA.sub(lambda m: html.escape(m.group(1)), text)
    text = _HIDDEN.sub("", text)

    def heading(match: re.Match[str]) -> str:
        level, inner = match.group(1), match.group(2)
        words = _SPACES.sub(" ", html.unescape(_TAG.sub("", inner))).strip()
        anchor = heading_anchor(words, title=title, deployment=deployment)
        return f'<h{level} id="{html.escape(anchor)}">{inner}</h{level}>'

    return f"<html><body>{_HEADING.sub(heading, text)}</body></html>"


def heading_anchor(heading: str, *, title: str, deployment: str) -> str:
    """Cloud links a heading as its words joined by hyphens (`#Rotate-the-keys`); Data Center
    as the page title and the heading with their spaces removed (`#Operations-Rotatethekeys`)."""
    if deployment == CLOUD:
        anchor = _SPACES.sub("-", heading.strip())
    else:
        anchor = f"{_SPACES.sub('', title)}-{_SPACES.sub('', heading)}"
    return quote(anchor, safe="-._~()!*'")


def pdf_documents(
    attachment: Attachment,
    *,
    page_title: str,
    private: bool,
    read: Callable[[str], bytes],
) -> list[Document]:
    """An attached PDF's pages as documents; one that cannot be read is left out (logged), so a
    damaged attachment never fails its page."""
    if attachment.size > settings.PDF_MAX_BYTES:
        logger.info("Confluence attachment %s is over PDF_MAX_BYTES; skipped", attachment.title)
        return []
    with tempfile.TemporaryDirectory(prefix="og-confluence-") as folder:
        path = Path(folder) / "attachment.pdf"
        path.write_bytes(read(attachment.download))
        request = LoadRequest(
            source_id=0,
            url=attachment.link,
            file_path=str(path),
            title=f"{page_title}: {attachment.title}",
            private=private,
        )
        try:
            result = PdfLoader().load(request, on_progress=lambda progress: None)
            documents = list(result.documents)
        except DomainError as exc:
            logger.info("Confluence attachment %s not read: %s", attachment.title, exc)
            return []
    # The file's own title, when it has one, names the PDF; the page says where it hangs.
    return [
        Document(
            title=f"{page_title}: {attachment.title}",
            link=document.link,
            text=document.text,
            format=document.format,
            metadata={**document.metadata, "attachment": attachment.title},
        )
        for document in documents
    ]
