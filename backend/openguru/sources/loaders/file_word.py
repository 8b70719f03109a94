"""Word (.docx) loader, through python-docx: the body in reading order (paragraphs, lists and
tables) as HTML with one heading per Word heading style, so the HTML chunker gives each section
its heading path and a `file.docx#heading` link."""

import re
from pathlib import Path
from typing import Any

import docx
import lxml.html
from docx.document import Document as WordDocument
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml.html import builder as E

from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)
from openguru.sources.loaders.file_common import (
    HeadingIds,
    check_file,
    check_zip,
    clean_text,
    file_link,
    nothing_to_index,
    own_title,
    parsed,
)

LABEL = "Word document"
_HEADING_STYLE = re.compile(r"^heading\s+([1-9])$", re.IGNORECASE)
_LIST_STYLE = re.compile(r"^list\b", re.IGNORECASE)


class DocxLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        path = Path(request.file_path)
        check_file(path, LABEL)
        check_zip(path, LABEL)
        document = parsed(LABEL, lambda: docx.Document(str(path)))
        body = parsed(LABEL, lambda: _body_html(document))
        html, _ = HeadingIds().assign(body)
        if not lxml.html.fromstring(html).text_content().strip():
            raise nothing_to_index(LABEL)
        on_progress(LoadProgress(discovered=1, fetched=1))
        title = (
            own_title(lambda: document.core_properties.title, LABEL) or request.title or path.name
        )
        loaded = Document(title=title, link=file_link(request), text=html, format="html")
        return LoadResult(documents=iter([loaded]))


def _body_html(document: WordDocument) -> str:
    root = E.DIV()
    open_list: Any = None
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            open_list = None
            root.append(_table(block))
            continue
        text = clean_text(block.text)
        if not text:
            continue
        style = _style_name(block)
        if _LIST_STYLE.match(style):
            if open_list is None:
                open_list = E.UL()
                root.append(open_list)
            open_list.append(E.LI(text))
            continue
        open_list = None
        root.append(_paragraph(text, style))
    return str(lxml.html.tostring(root, encoding="unicode"))


def _paragraph(text: str, style: str) -> Any:
    if style.casefold() == "title":
        return E.H1(text)
    heading = _HEADING_STYLE.match(style)
    if heading:
        return getattr(E, f"H{min(int(heading.group(1)), 6)}")(text)
    return E.P(text)


def _table(table: Table) -> Any:
    rows = []
    for row in table.rows:
        cells, previous = [], None
        for cell in row.cells:
            if cell._tc is previous:  # a merged cell is listed once per grid column it spans
                continue
            previous = cell._tc
            cells.append(E.TD(clean_text(cell.text)))
        rows.append(E.TR(*cells))
    return E.TABLE(*rows)


def _style_name(paragraph: Paragraph) -> str:
    style = paragraph.style
    return str(style.name or "") if style is not None else ""
