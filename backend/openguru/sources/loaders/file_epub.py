"""EPUB loader, with the standard library's zipfile and lxml: the container names the package
file, whose spine lists the chapters in reading order; each chapter (XHTML) goes through the
website loader's extraction and becomes one HTML document. Heading anchors are unique across the
whole book, so a citation links to `book.epub#chapter-heading`.

EbookLib would do the container and package reading, but it is AGPL-licensed and loads every
item (images and fonts too) into memory; the three small XML files it would read are read here.
"""

import posixpath
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import lxml.etree

from openguru.core.errors import DomainError, ErrorCode
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
    parsed,
)
from openguru.sources.loaders.website_html import parse_page

LABEL = "EPUB book"
_NS = {
    "c": "urn:oasis:names:tc:opendocument:xmlns:container",
    "opf": "http://www.idpf.org/2007/opf",
    "dc": "http://purl.org/dc/elements/1.1/",
    "enc": "http://www.w3.org/2001/04/xmlenc#",
}
_CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html"})
# Font obfuscation (IDPF and Adobe): fonts are scrambled, the text is not. Anything else is DRM.
_FONT_OBFUSCATION = frozenset(
    {"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"}
)
_PARSER = lxml.etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


@dataclass(frozen=True)
class _Book:
    title: str
    chapters: list[str]  # archive paths of the spine's XHTML documents, in reading order


class EpubLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        path = Path(request.file_path)
        check_file(path, LABEL)
        check_zip(path, LABEL)
        with zipfile.ZipFile(path) as archive:
            book = parsed(LABEL, lambda: _book(archive))
            title = book.title or request.title or path.name
            documents = parsed(
                LABEL, lambda: _chapter_documents(archive, book, title, request, on_progress)
            )
        if not documents:
            raise nothing_to_index(LABEL)
        return LoadResult(documents=iter(documents))


def _xml(archive: zipfile.ZipFile, name: str) -> lxml.etree._Element:
    return lxml.etree.fromstring(archive.read(name), parser=_PARSER)


def _book(archive: zipfile.ZipFile) -> _Book:
    _refuse_drm(archive)
    container = _xml(archive, "META-INF/container.xml")
    package_path = str(container.xpath("string(//c:rootfile/@full-path)", namespaces=_NS))
    package = _xml(archive, package_path)
    base = posixpath.dirname(package_path)
    items = {
        str(item.get("id")): (str(item.get("href") or ""), str(item.get("media-type") or ""))
        for item in package.iterfind("opf:manifest/opf:item", _NS)
    }
    chapters = []
    for ref in package.iterfind("opf:spine/opf:itemref", _NS):
        href, media_type = items.get(str(ref.get("idref")), ("", ""))
        if href and media_type in _CHAPTER_TYPES:
            chapters.append(posixpath.normpath(posixpath.join(base, unquote(href.split("#")[0]))))
    title = clean_text(str(package.xpath("string(//dc:title)", namespaces=_NS)))
    return _Book(title=title, chapters=list(dict.fromkeys(chapters)))


def _refuse_drm(archive: zipfile.ZipFile) -> None:
    if "META-INF/encryption.xml" not in archive.namelist():
        return
    methods = _xml(archive, "META-INF/encryption.xml").xpath(
        "//enc:EncryptionMethod/@Algorithm", namespaces=_NS
    )
    if any(str(method) not in _FONT_OBFUSCATION for method in methods):
        raise DomainError(
            ErrorCode.INVALID_FILE,
            "The EPUB is DRM-protected; its text cannot be read. Upload a copy without DRM.",
        )


def _chapter_documents(
    archive: zipfile.ZipFile,
    book: _Book,
    title: str,
    request: LoadRequest,
    on_progress: ProgressCallback,
) -> list[Document]:
    progress = LoadProgress(discovered=len(book.chapters))
    on_progress(progress)
    # Slugs of the headings' text, unique in the book: a chapter's own ids ("sec1", reused by
    # every chapter) lead nowhere in a link to the .epub file, a heading's words say something.
    anchors = HeadingIds(keep_own=False)
    documents = []
    for number, name in enumerate(book.chapters, start=1):
        page = parse_page(archive.read(name), url=f"{request.url or 'file:///'}/{name}")
        html, first_anchor = anchors.assign(page.html)
        progress.fetched += 1
        on_progress(progress)
        if html:
            documents.append(
                Document(
                    title=title,
                    link=file_link(request, first_anchor),
                    text=html,
                    format="html",
                    metadata={"chapter": number},
                )
            )
    return documents
