"""Confluence (Cloud and Data Center) as a connector (`connectors/base.py`): a space's pages, or
a page and every page below it.

A page is one item, versioned by its `version.number` (every edit moves it): an unchanged page is
not fetched again, a page trashed or deleted upstream is no longer listed and loses its chunks.
Its storage-format body becomes one HTML document cut at its headings, each chunk linked to the
page and the heading's anchor; each PDF attached to it becomes a document per PDF page
(`…/download/attachments/<page>/<file>.pdf#page=N`). Attachments are read with their page: one
added or replaced later is read when the page changes next.

Options: `deployment` ("cloud" or "datacenter"), `space` (a space key) or `root_page` (a page
id: it and its descendants), `email` (Cloud: the account the API token belongs to),
`attachments` (default true). `base_url` is derived from the source's link.
"""

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.connectors.base import Item
from openguru.sources.connectors.confluence_api import (
    CLOUD,
    DATACENTER,
    ConfluenceApi,
    PageRef,
    confluence_api,
)
from openguru.sources.connectors.confluence_pages import pdf_documents, storage_html
from openguru.sources.loaders.base import Document, LoadRequest

_SPACE_KEY = re.compile(r"~?[A-Za-z0-9_]{1,255}")
_SPACE_PATH = re.compile(
    r"^(?P<base>.*?)/(?:spaces|display)/(?P<space>[^/]+)(?:/pages/(?P<page>\d+))?"
)
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+")


def source_checked(url: str, options: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The source's own link (the space or the root page) and its options as the connector
    reads them; a refusal names what is wrong. `url` is the site's base URL, or a space or page
    link copied from the browser (the space and page are read from it)."""
    deployment = str(options.get("deployment") or CLOUD)
    if deployment not in (CLOUD, DATACENTER):
        raise DomainError(ErrorCode.INVALID_INPUT, "deployment is cloud or datacenter.")
    base, url_space, url_page = _split(url)
    if deployment == CLOUD and not base.endswith("/wiki"):
        base += "/wiki"  # Confluence Cloud lives under /wiki on the site
    space = str(options.get("space") or url_space).strip()
    root_page = str(options.get("root_page") or url_page).strip()
    if not space and not root_page:
        raise DomainError(ErrorCode.INVALID_INPUT, "Give a space key or a root page id.")
    if root_page and not root_page.isdigit():
        raise DomainError(ErrorCode.INVALID_INPUT, "root_page is a page id, such as 65545.")
    if space and not _SPACE_KEY.fullmatch(space):
        raise DomainError(ErrorCode.INVALID_INPUT, "space is a space key, such as ENG.")
    email = str(options.get("email") or "").strip()
    if deployment == CLOUD and not _EMAIL.fullmatch(email):
        raise DomainError(
            ErrorCode.INVALID_INPUT, "Confluence Cloud needs the email the API token belongs to."
        )
    checked = {
        "deployment": deployment,
        "base_url": base,
        "space": "" if root_page else space,
        "root_page": root_page,
        "email": email if deployment == CLOUD else "",
        "attachments": bool(options.get("attachments", True)),
    }
    return _own_link(checked), checked


def _split(url: str) -> tuple[str, str, str]:
    """(base URL, space key, page id) of what was pasted; space and page may be ""."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise DomainError(ErrorCode.INVALID_INPUT, "Enter the Confluence site's http(s) URL.")
    path = parts.path.rstrip("/")
    page = (parse_qs(parts.query).get("pageId") or [""])[0]
    if page and "/pages/" in path:
        path = path.split("/pages/", 1)[0]
    found = _SPACE_PATH.match(path)
    space = ""
    if found:
        path, space, page = found["base"], found["space"], found["page"] or page
    return f"{parts.scheme}://{parts.netloc}{path}", space, page


def _own_link(options: Mapping[str, Any]) -> str:
    base = options["base_url"]
    if options["root_page"]:
        return f"{base}/pages/viewpage.action?pageId={options['root_page']}"
    if options["deployment"] == CLOUD:
        return f"{base}/spaces/{options['space']}"
    return f"{base}/display/{options['space']}"


def page_tree(pages: Sequence[PageRef], root: str) -> list[PageRef]:
    """The root page and every page below it, in listing order."""
    children: dict[str, list[str]] = {}
    for page in pages:
        children.setdefault(page.parent_id, []).append(page.id)
    inside, pending = {root}, [root]
    while pending:
        for child in children.get(pending.pop(), []):
            if child not in inside:
                inside.add(child)
                pending.append(child)
    return [page for page in pages if page.id in inside]


class ConfluenceConnector:
    def __init__(self, request: LoadRequest, *, api: ConfluenceApi | None = None) -> None:
        self._link, self._options = source_checked(request.url, request.options)
        self._private = request.private
        self._api = api or confluence_api(
            deployment=self._options["deployment"],
            base_url=self._options["base_url"],
            email=self._options["email"],
            token=request.credential,
        )
        self._listed: dict[str, PageRef] = {}

    def list_items(self) -> Iterator[Item]:
        root = self._options["root_page"]
        if root:
            pages = page_tree(list(self._api.pages(self._api.space_of_page(root))), root)
            if not pages:
                raise DomainError(
                    ErrorCode.REPO_NOT_FOUND,
                    f"Confluence lists no current page {root}; it may be trashed or archived.",
                )
        else:
            pages = list(self._api.pages(self._api.space_id(self._options["space"])))
        for page in pages:
            key = f"page:{page.id}"
            self._listed[key] = page
            yield Item(key=key, version=page.version, link=page.link)

    def fetch(self, item: Item) -> Sequence[Document]:
        page = self._listed[item.key]
        deployment = self._options["deployment"]
        body = storage_html(self._api.body(page.id), title=page.title, deployment=deployment)
        metadata = {"kind": "page", "page_id": page.id, "version": page.version}
        documents = [
            Document(
                title=page.title,
                link="" if self._private else page.link,
                text=body,
                format="html",
                metadata=metadata,
            )
        ]
        if self._options["attachments"]:
            for attachment in self._api.pdf_attachments(page.id):
                documents += pdf_documents(
                    attachment,
                    page_title=page.title,
                    private=self._private,
                    read=self._api.download,
                )
        return documents
