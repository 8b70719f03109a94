"""Confluence's two REST APIs behind one small interface (`ConfluenceApi`).

- Cloud (`https://<site>.atlassian.net/wiki`): REST v2 (`/api/v2/spaces`, `/spaces/{id}/pages`,
  `/pages/{id}?body-format=storage`, `/pages/{id}/attachments`), basic auth with the account's
  email and an API token. Listings are cursor-paginated: `_links.next` is a path on the site
  (`/wiki/api/v2/...&cursor=...`).
- Data Center (`https://confluence.example.com[/context]`): `/rest/api/content` with `start` and
  `limit`, a personal access token as Bearer. `_links.next` is a path under the base URL.

Both list a space's current pages with their version number and parent, so a page tree is cut
out of its space's listing (a trashed or deleted page is no longer listed).
"""

import base64
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote, urlsplit

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.connectors.http import ApiClient

CLOUD, DATACENTER = "cloud", "datacenter"
PAGE_SIZE = 250  # v2's maximum; Data Center caps its own limit lower and says so in `limit`


@dataclass(frozen=True)
class PageRef:
    id: str
    title: str
    version: str  # version.number: moves on every edit
    parent_id: str  # "" at the top of the space
    link: str  # the page in the browser


@dataclass(frozen=True)
class Attachment:
    title: str
    size: int
    download: str  # where its bytes are (absolute)
    link: str  # what a citation opens: the download address without its query


class ConfluenceApi(Protocol):
    def space_id(self, key: str) -> str: ...

    def space_of_page(self, page_id: str) -> str: ...

    def pages(self, space: str) -> Iterator[PageRef]: ...

    def body(self, page_id: str) -> str: ...

    def pdf_attachments(self, page_id: str) -> Iterator[Attachment]: ...

    def download(self, url: str) -> bytes: ...


def confluence_api(
    *, deployment: str, base_url: str, email: str, token: str, page_size: int = PAGE_SIZE
) -> ConfluenceApi:
    headers = {"Accept": "application/json", "User-Agent": "OpenGuru"}
    if token and deployment == CLOUD:
        pair = base64.b64encode(f"{email}:{token}".encode()).decode()
        headers["Authorization"] = f"Basic {pair}"
    elif token:
        headers["Authorization"] = f"Bearer {token}"
    client = ApiClient(
        base_url=base_url, headers=headers, service="Confluence", subject="the space or page"
    )
    if deployment == CLOUD:
        return CloudApi(client, base_url, page_size)
    return DataCenterApi(client, base_url, page_size)


class _Listing:
    """Results of a listing across its pages, following `_links.next` (relative to `root`)."""

    def __init__(self, client: ApiClient, base_url: str, root: str) -> None:
        self._client = client
        self._base = base_url.rstrip("/")
        self._root = root.rstrip("/")

    def results(self, path: str, params: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        body = self._client.get(self._base + path, params).json()
        while True:
            results = list(body.get("results") or [])
            yield from results
            following = str((body.get("_links") or {}).get("next") or "")
            # Some Data Center versions keep offering a next page past the end.
            if not following or not results:
                return
            body = self._client.get(self._next_url(following)).json()

    def _next_url(self, following: str) -> str:
        if not following.startswith(("http://", "https://")):
            return self._root + following
        if urlsplit(following)[:2] != urlsplit(self._base)[:2]:
            # The credential goes with every request: never to another host.
            raise DomainError(
                ErrorCode.FETCH_FAILED, "Confluence sent a next page on another host."
            )
        return following

    def absolute(self, path: str) -> str:
        return path if path.startswith(("http://", "https://")) else self._base + path

    def bytes_of(self, url: str) -> bytes:
        if urlsplit(url)[:2] != urlsplit(self._base)[:2]:
            raise DomainError(ErrorCode.FETCH_FAILED, "Confluence linked a file on another host.")
        return self._client.get(url).content


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _citation_link(download: str) -> str:
    return download.split("?", 1)[0]


class CloudApi:
    """Confluence Cloud REST v2 under `https://<site>.atlassian.net/wiki`."""

    def __init__(self, client: ApiClient, base_url: str, page_size: int) -> None:
        self._list = _Listing(client, base_url, _origin(base_url))
        self._client = client
        self._base = base_url.rstrip("/")
        self._size = page_size

    def space_of_page(self, page_id: str) -> str:
        page = self._client.get(f"{self._base}/api/v2/pages/{quote(page_id)}").json()
        return str(page["spaceId"])

    def space_id(self, key: str) -> str:
        found = list(self._list.results("/api/v2/spaces", {"keys": key, "limit": 1}))
        if not found:
            raise DomainError(
                ErrorCode.REPO_NOT_FOUND,
                f"Confluence has no space {key} readable with this token. Check the space key "
                "and that the account may view the space.",
            )
        return str(found[0]["id"])

    def pages(self, space: str) -> Iterator[PageRef]:
        params = {"limit": self._size, "status": "current"}
        for page in self._list.results(f"/api/v2/spaces/{quote(space)}/pages", params):
            yield PageRef(
                id=str(page["id"]),
                title=str(page.get("title") or ""),
                version=str((page.get("version") or {}).get("number", "")),
                parent_id=str(page.get("parentId") or ""),
                link=self._list.absolute(str((page.get("_links") or {}).get("webui") or "")),
            )

    def body(self, page_id: str) -> str:
        url = f"{self._base}/api/v2/pages/{quote(page_id)}"
        page = self._client.get(url, {"body-format": "storage"}).json()
        return str(((page.get("body") or {}).get("storage") or {}).get("value") or "")

    def pdf_attachments(self, page_id: str) -> Iterator[Attachment]:
        path = f"/api/v2/pages/{quote(page_id)}/attachments"
        params = {"limit": self._size, "mediaType": "application/pdf", "status": "current"}
        for item in self._list.results(path, params):
            if str(item.get("mediaType") or "") != "application/pdf":
                continue
            download = self._list.absolute(str(item.get("downloadLink") or ""))
            yield Attachment(
                title=str(item.get("title") or "attachment.pdf"),
                size=int(item.get("fileSize") or 0),
                download=download,
                link=_citation_link(download),
            )

    def download(self, url: str) -> bytes:
        return self._list.bytes_of(url)


class DataCenterApi:
    """Confluence Data Center (and Server) REST `/rest/api/content`."""

    def __init__(self, client: ApiClient, base_url: str, page_size: int) -> None:
        self._list = _Listing(client, base_url, base_url)
        self._client = client
        self._base = base_url.rstrip("/")
        self._size = page_size

    def space_of_page(self, page_id: str) -> str:
        url = f"{self._base}/rest/api/content/{quote(page_id)}"
        page = self._client.get(url, {"expand": "space"}).json()
        return str(page["space"]["key"])

    def space_id(self, key: str) -> str:
        self._client.get(f"{self._base}/rest/api/space/{quote(key)}")  # 404: no such space
        return key

    def pages(self, space: str) -> Iterator[PageRef]:
        params = {
            "spaceKey": space,
            "type": "page",
            "status": "current",
            "expand": "version,ancestors",
            "start": 0,
            "limit": self._size,
        }
        for page in self._list.results("/rest/api/content", params):
            ancestors = page.get("ancestors") or []
            yield PageRef(
                id=str(page["id"]),
                title=str(page.get("title") or ""),
                version=str((page.get("version") or {}).get("number", "")),
                parent_id=str(ancestors[-1]["id"]) if ancestors else "",
                link=self._list.absolute(str((page.get("_links") or {}).get("webui") or "")),
            )

    def body(self, page_id: str) -> str:
        url = f"{self._base}/rest/api/content/{quote(page_id)}"
        page = self._client.get(url, {"expand": "body.storage"}).json()
        return str(((page.get("body") or {}).get("storage") or {}).get("value") or "")

    def pdf_attachments(self, page_id: str) -> Iterator[Attachment]:
        path = f"/rest/api/content/{quote(page_id)}/child/attachment"
        params = {"mediaType": "application/pdf", "start": 0, "limit": self._size}
        for item in self._list.results(path, params):
            extensions = item.get("extensions") or {}
            media = extensions.get("mediaType") or (item.get("metadata") or {}).get("mediaType")
            if media != "application/pdf":
                continue
            download = self._list.absolute(str((item.get("_links") or {}).get("download") or ""))
            yield Attachment(
                title=str(item.get("title") or "attachment.pdf"),
                size=int(extensions.get("fileSize") or 0),
                download=download,
                link=_citation_link(download),
            )

    def download(self, url: str) -> bytes:
        return self._list.bytes_of(url)
