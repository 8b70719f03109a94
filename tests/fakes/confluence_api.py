"""A loopback stand-in for the parts of Confluence's REST APIs the Confluence connector calls, in
Confluence's own shapes. Standard library only; it shares no code with the connector.

Cloud (`deployment="cloud"`, everything under /wiki, basic auth email:API token), REST v2:
  GET /wiki/api/v2/spaces?keys=&limit=
  GET /wiki/api/v2/spaces/{id}/pages?limit=&status=&cursor=
  GET /wiki/api/v2/pages/{id}[?body-format=storage]
  GET /wiki/api/v2/pages/{id}/attachments?mediaType=&limit=&cursor=
  GET /wiki/download/attachments/{page id}/{file name}?version=&api=v2
  Listings carry `_links.next` (`/wiki/api/v2/...&cursor=<opaque>`, a path on the site) and the
  same link in a `Link: <...>; rel="next"` header; `_links.base` is the site's /wiki.
Data Center (`deployment="datacenter"`, under `context`, Bearer personal access token):
  GET {context}/rest/api/space/{key}
  GET {context}/rest/api/content?spaceKey=&type=page&status=&expand=version,ancestors&start=&limit=
  GET {context}/rest/api/content/{id}?expand=space|body.storage
  GET {context}/rest/api/content/{id}/child/attachment?mediaType=&start=&limit=
  GET {context}/download/attachments/{page id}/{file name}
  Listings carry `start`, `limit`, `size` and `_links.next` (a path under `_links.base`).

`next_page_host` makes Cloud's next links absolute, on that origin. A wrong credential is 401; an unknown space or page 404, each in its API's error body. A page
whose status is "trashed" is only listed when asked for that status. `fail_next` queues answers
sent before the real ones: (429, {"Retry-After": "1"}), (503, {}).
"""

import base64
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, quote, quote_plus, unquote, urlencode, urlsplit

from tests.fakes.loopback import LoopbackServer


@dataclass
class FakeAttachment:
    id: str
    title: str  # the file name
    data: bytes
    media_type: str = "application/pdf"
    version: int = 1


@dataclass
class FakePage:
    id: str
    space: str  # space key
    title: str
    body: str  # storage format
    version: int = 1
    parent_id: str = ""
    status: str = "current"
    attachments: list[FakeAttachment] = field(default_factory=list)


@dataclass(frozen=True)
class SeenRequest:
    path: str
    query: dict[str, str]
    authorization: str
    at: float


class FakeConfluenceApi(LoopbackServer):
    def __init__(self, *, deployment: str, token: str, email: str = "", context: str = "") -> None:
        self.deployment, self.token, self.email = deployment, token, email
        self.context = "/wiki" if deployment == "cloud" else context
        self.spaces: dict[str, str] = {}  # key -> id
        self.pages: dict[str, FakePage] = {}
        self.page_size = 250
        self.next_page_host = ""  # set: `_links.next` is an absolute link to this origin
        self.fail_next: list[tuple[int, Mapping[str, str]]] = []
        self.requests: list[SeenRequest] = []
        self._listen(_Handler, host="127.0.0.1", port=0, api=self)

    @property
    def base_url(self) -> str:
        return self.url + self.context

    def add_space(self, key: str, space_id: str) -> None:
        self.spaces[key] = space_id

    def add_page(self, page: FakePage) -> FakePage:
        self.pages[page.id] = page
        return page

    def edit(self, page_id: str, body: str) -> None:
        self.pages[page_id].body = body
        self.pages[page_id].version += 1

    def requests_to(self, fragment: str) -> list[SeenRequest]:
        return [seen for seen in self.requests if fragment in seen.path]

    def page_link(self, page: FakePage) -> str:
        if self.deployment == "cloud":
            return f"{self.base_url}/spaces/{page.space}/pages/{page.id}/{quote_plus(page.title)}"
        return f"{self.base_url}/display/{page.space}/{quote_plus(page.title)}"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    api: FakeConfluenceApi

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        authorization = self.headers.get("Authorization", "")
        self.api.requests.append(SeenRequest(parts.path, query, authorization, time.time()))
        if self.api.fail_next:
            status, headers = self.api.fail_next.pop(0)
            return self._error(
                status, "Too many requests" if status == 429 else "Unavailable", headers
            )
        if authorization != self._expected_authorization():
            return self._error(401, "Unauthorized")
        path = unquote(parts.path)
        if not path.startswith(self.api.context + "/"):
            return self._error(404, "Not Found")
        path = path.removeprefix(self.api.context)
        if path.startswith("/download/attachments/"):
            return self._download(path)
        if self.api.deployment == "cloud":
            return self._cloud(path, query)
        return self._datacenter(path, query)

    def _expected_authorization(self) -> str:
        if self.api.deployment == "cloud":
            pair = base64.b64encode(f"{self.api.email}:{self.api.token}".encode()).decode()
            return f"Basic {pair}"
        return f"Bearer {self.api.token}"

    # --- Cloud, REST v2 -----------------------------------------------------------------------

    def _cloud(self, path: str, query: Mapping[str, str]) -> None:
        segments = [s for s in path.removeprefix("/api/v2/").split("/") if s]
        if segments == ["spaces"]:
            keys = set(query.get("keys", "").split(","))
            rows = [
                {"id": sid, "key": key, "name": key, "type": "global", "status": "current",
                 "_links": {"webui": f"/spaces/{key}"}}
                for key, sid in self.api.spaces.items() if key in keys
            ]  # fmt: skip
            return self._cursor_page(path, query, rows)
        if len(segments) == 3 and segments[0] == "spaces" and segments[2] == "pages":
            key = next((k for k, sid in self.api.spaces.items() if sid == segments[1]), None)
            if key is None:
                return self._error(404, "Not Found")
            status = query.get("status", "current")
            rows = [self._v2_page(p, with_body=False) for p in self._pages(key, status)]
            return self._cursor_page(path, query, rows)
        page = self.api.pages.get(segments[1]) if len(segments) >= 2 else None
        if segments[:1] != ["pages"] or page is None:
            return self._error(404, "Not Found")
        if len(segments) == 2:
            return self._json(200, self._v2_page(page, with_body="body-format" in query))
        if segments[2:] == ["attachments"]:
            rows = [
                self._v2_attachment(page, a)
                for a in page.attachments
                if query.get("mediaType") in (None, a.media_type)
            ]
            return self._cursor_page(path, query, rows)
        return self._error(404, "Not Found")

    def _v2_page(self, page: FakePage, *, with_body: bool) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "id": page.id,
            "status": page.status,
            "title": page.title,
            "spaceId": self.api.spaces[page.space],
            "parentId": page.parent_id or None,
            "parentType": "page" if page.parent_id else None,
            "authorId": "5b10ac8d82e05b22cc7d4ef5",
            "createdAt": "2025-01-01T10:00:00.000Z",
            "version": {"number": page.version, "message": "", "minorEdit": False,
                        "authorId": "5b10ac8d82e05b22cc7d4ef5",
                        "createdAt": "2025-03-01T10:00:00.000Z"},
            "body": {},
            "_links": {
                "webui": f"/spaces/{page.space}/pages/{page.id}/{quote_plus(page.title)}",
                "editui": f"/pages/resumedraft.action?draftId={page.id}",
                "tinyui": f"/x/{page.id}",
            },
        }  # fmt: skip
        if with_body:
            shown["body"] = {"storage": {"representation": "storage", "value": page.body}}
        return shown

    def _v2_attachment(self, page: FakePage, attachment: FakeAttachment) -> dict[str, Any]:
        download = (
            f"/download/attachments/{page.id}/{quote(attachment.title)}"
            f"?version={attachment.version}&modificationDate=1740823200000&api=v2"
        )
        return {
            "id": attachment.id,
            "status": "current",
            "title": attachment.title,
            "mediaType": attachment.media_type,
            "fileSize": len(attachment.data),
            "pageId": page.id,
            "version": {"number": attachment.version},
            "downloadLink": download,
            "_links": {
                "download": download,
                "webui": f"/pages/viewpageattachments.action?pageId={page.id}&preview="
                f"%2F{page.id}%2F{attachment.id}",
            },
        }

    def _cursor_page(self, path: str, query: Mapping[str, str], rows: list[Any]) -> None:
        size = min(int(query.get("limit", 25)), self.api.page_size)
        cursor = query.get("cursor", "")
        start = int(base64.urlsafe_b64decode(cursor.encode()).decode()) if cursor else 0
        body: dict[str, Any] = {"results": rows[start : start + size], "_links": {}}
        body["_links"]["base"] = self.api.base_url
        headers = {}
        if start + size < len(rows):
            token = base64.urlsafe_b64encode(str(start + size).encode()).decode()
            following = {k: v for k, v in query.items() if k != "cursor"} | {"cursor": token}
            body["_links"]["next"] = f"{self.api.context}{path}?{urlencode(following)}"
            if self.api.next_page_host:
                body["_links"]["next"] = self.api.next_page_host + body["_links"]["next"]
            headers["Link"] = f'<{body["_links"]["next"]}>; rel="next"'
        self._json(200, body, headers)

    # --- Data Center, REST /rest/api ----------------------------------------------------------

    def _datacenter(self, path: str, query: Mapping[str, str]) -> None:
        segments = [s for s in path.removeprefix("/rest/api/").split("/") if s]
        if len(segments) == 2 and segments[0] == "space":
            if segments[1] not in self.api.spaces:
                return self._dc_missing(f"No space found with key : {segments[1]}")
            key = segments[1]
            return self._json(200, {"id": int(self.api.spaces[key]), "key": key, "name": key,
                                    "type": "global", "_links": {"webui": f"/display/{key}"}})  # fmt: skip
        if segments == ["content"]:
            status = query.get("status", "current")
            pages = self._pages(query.get("spaceKey", ""), status)
            return self._offset_page(path, query, [self._dc_page(p) for p in pages])
        page = self.api.pages.get(segments[1]) if len(segments) >= 2 else None
        if segments[:1] != ["content"] or page is None:
            return self._dc_missing("No content found with id")
        if len(segments) == 2:
            shown = self._dc_page(page)
            expand = query.get("expand", "")
            if "space" in expand:
                shown["space"] = {"key": page.space, "name": page.space, "type": "global"}
            if "body.storage" in expand:
                shown["body"] = {"storage": {"value": page.body, "representation": "storage"}}
            return self._json(200, shown)
        if segments[2:] == ["child", "attachment"]:
            rows = [
                self._dc_attachment(page, a)
                for a in page.attachments
                if query.get("mediaType") in (None, a.media_type)
            ]
            return self._offset_page(path, query, rows)
        return self._dc_missing("Not found")

    def _dc_page(self, page: FakePage) -> dict[str, Any]:
        ancestors, parent = [], self.api.pages.get(page.parent_id)
        while parent is not None:
            ancestors.insert(0, {"id": parent.id, "type": "page", "title": parent.title})
            parent = self.api.pages.get(parent.parent_id)
        return {
            "id": page.id,
            "type": "page",
            "status": page.status,
            "title": page.title,
            "version": {"number": page.version, "when": "2025-03-01T10:00:00.000Z"},
            "ancestors": ancestors,
            "_links": {
                "webui": f"/display/{page.space}/{quote_plus(page.title)}",
                "tinyui": f"/x/{page.id}",
                "self": f"{self.api.base_url}/rest/api/content/{page.id}",
            },
        }

    def _dc_attachment(self, page: FakePage, attachment: FakeAttachment) -> dict[str, Any]:
        return {
            "id": attachment.id,
            "type": "attachment",
            "status": "current",
            "title": attachment.title,
            "metadata": {"mediaType": attachment.media_type},
            "extensions": {"mediaType": attachment.media_type, "fileSize": len(attachment.data)},
            "_links": {
                "webui": f"/display/{page.space}/{quote_plus(page.title)}"
                f"?preview=/{page.id}/{attachment.id}/{quote(attachment.title)}",
                "download": f"/download/attachments/{page.id}/{quote(attachment.title)}"
                f"?version={attachment.version}&modificationDate=1740823200000&api=v2",
            },
        }

    def _offset_page(self, path: str, query: Mapping[str, str], rows: list[Any]) -> None:
        size = min(int(query.get("limit", 25)), self.api.page_size)
        start = int(query.get("start", 0))
        page = rows[start : start + size]
        links = {"base": self.api.base_url, "context": self.api.context,
                 "self": f"{self.api.base_url}{path}"}  # fmt: skip
        if start + size < len(rows):
            following = {**query, "start": start + size, "limit": size}
            links["next"] = f"{path}?{urlencode(following)}"
        body = {"results": page, "start": start, "limit": size, "size": len(page), "_links": links}
        self._json(200, body)

    def _dc_missing(self, message: str) -> None:
        self._json(404, {"statusCode": 404, "data": {"authorized": True, "valid": True,
                         "errors": [], "successful": False}, "message": message,
                         "reason": "Not Found"})  # fmt: skip

    # --- shared --------------------------------------------------------------------------------

    def _pages(self, space: str, status: str) -> list[FakePage]:
        chosen = [p for p in self.api.pages.values() if p.space == space and p.status == status]
        return sorted(chosen, key=lambda p: int(p.id))

    def _download(self, path: str) -> None:
        _, _, _, page_id, name = path.split("/", 4)
        page = self.api.pages.get(page_id)
        found = [a for a in (page.attachments if page else []) if a.title == name]
        if not found:
            return self._error(404, "Not Found")
        self.send_response(200)
        self.send_header("Content-Type", found[0].media_type)
        self.send_header("Content-Length", str(len(found[0].data)))
        self.end_headers()
        self.wfile.write(found[0].data)

    def _error(self, status: int, title: str, headers: Mapping[str, str] | None = None) -> None:
        if self.api.deployment == "cloud":
            code = title.upper().replace(" ", "_")
            body: dict[str, Any] = {
                "errors": [{"status": status, "code": code, "title": title, "detail": None}]
            }
        else:
            body = {"statusCode": status, "message": title, "reason": title}
        self._json(status, body, headers)

    def _json(self, status: int, payload: object, headers: Mapping[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
