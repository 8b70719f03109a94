"""A loopback stand-in for the part of Zendesk's Help Center API the Zendesk connector calls, in
Zendesk's own shapes. Standard library only; it shares no code with the connector.

  GET /api/v2/help_center/{locale}/articles?page[size]=&page[after]=
  GET /api/v2/help_center/{locale}/sections/{id}/articles?page[size]=&page[after]=
      {"articles": [...], "meta": {"has_more", "after_cursor", "before_cursor"},
       "links": {"next", "prev"}} — cursor pagination, oldest article first; without
      page[size], offset pagination ({"articles", "next_page", "page", "page_count", ...}).

Anonymous readers see published articles only; an agent (basic `{email}/token:{token}` or a
bearer OAuth token) sees drafts too (`draft: true`). Archived and deleted articles are listed to
nobody. Wrong credentials are 401 {"error": "Couldn't authenticate you"}; an unknown locale or
section 404 {"error": "RecordNotFound", ...}; `restricted` (a help center that needs sign-in)
answers anonymous readers 403. `fail_next` queues answers sent before the real ones:
(429, {"Retry-After": "1"}), (503, {}).

    with FakeZendeskApi(email="agent@acme.test", token="t0k") as zendesk:
        add(type="zendesk", url=zendesk.url, token="t0k", options={"email": ...})
"""

import base64
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from tests.fakes.loopback import LoopbackServer

WEB = "https://acme.zendesk.com"  # where html_url points: the help center readers open
_LISTING = re.compile(r"^/api/v2/help_center/([a-z-]+)(?:/sections/(\d+))?/articles(?:\.json)?$")


@dataclass
class FakeArticle:
    id: int
    title: str
    body: str  # HTML
    updated_at: str
    section_id: int = 100
    locale: str = "en-us"
    draft: bool = False
    archived: bool = False  # archived articles leave every listing
    labels: list[str] = field(default_factory=list)

    @property
    def html_url(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-")
        return f"{WEB}/hc/{self.locale}/articles/{self.id}-{slug}"


@dataclass(frozen=True)
class SeenRequest:
    path: str
    query: dict[str, str]
    authorization: str
    at: float


class FakeZendeskApi(LoopbackServer):
    def __init__(
        self,
        *,
        email: str = "",
        token: str | None = None,
        oauth_token: str | None = None,
        locales: tuple[str, ...] = ("en-us", "de"),
    ) -> None:
        self.email, self.token, self.oauth_token = email, token, oauth_token
        self.locales = locales
        self.restricted = False
        self.articles: dict[int, FakeArticle] = {}
        self.sections = {100, 200, 300}
        self.page_size_max = 100  # Zendesk's; a test makes it small to see pagination
        self.next_page_host = ""  # set: links.next points at this origin instead
        self.fail_next: list[tuple[int, Mapping[str, str]]] = []
        self.requests: list[SeenRequest] = []
        self._listen(_Handler, host="127.0.0.1", port=0, api=self)

    def add(self, article: FakeArticle) -> FakeArticle:
        self.articles[article.id] = article
        return article

    def listings(self) -> list[SeenRequest]:
        return [seen for seen in self.requests if seen.path.endswith("/articles")]

    def is_agent(self, authorization: str) -> bool | None:
        """True for an agent's credentials, False for none, None for wrong ones."""
        if not authorization:
            return False
        scheme, _, value = authorization.partition(" ")
        if scheme == "Bearer":
            return True if self.oauth_token and value == self.oauth_token else None
        if scheme == "Basic" and self.token:
            try:
                decoded = base64.b64decode(value).decode()
            except ValueError:
                return None
            return True if decoded == f"{self.email}/token:{self.token}" else None
        return None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    api: FakeZendeskApi

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        authorization = self.headers.get("Authorization", "")
        self.api.requests.append(SeenRequest(parts.path, query, authorization, time.time()))
        if self.api.fail_next:
            status, headers = self.api.fail_next.pop(0)
            return self._json(status, {"error": "TooManyRequests"}, headers)
        agent = self.api.is_agent(authorization)
        if agent is None:
            return self._json(401, {"error": "Couldn't authenticate you"})
        if self.api.restricted and not agent:
            return self._json(403, {"error": "Forbidden", "description": "Sign in to read."})
        match = _LISTING.match(parts.path)
        if not match or match.group(1) not in self.api.locales:
            return self._not_found()
        section = int(match.group(2)) if match.group(2) else None
        if section is not None and section not in self.api.sections:
            return self._not_found()
        rows = [
            self._article(article)
            for article in sorted(self.api.articles.values(), key=lambda a: a.id)
            if article.locale == match.group(1)
            and not article.archived
            and (agent or not article.draft)
            and (section is None or article.section_id == section)
        ]
        if "page[size]" in query:
            return self._cursor_page(parts.path, query, rows)
        self._json(200, {"articles": rows[:30], "next_page": None, "page": 1, "count": len(rows)})

    def _cursor_page(self, path: str, query: Mapping[str, str], rows: list[dict[str, Any]]) -> None:
        size = max(1, min(int(query["page[size]"]), self.api.page_size_max))
        after = query.get("page[after]", "")
        start = 0
        if after:  # the cursor is the id of the last article given, encoded as Zendesk's are
            last_id = int(base64.urlsafe_b64decode(after.encode()).decode())
            start = next((n for n, row in enumerate(rows) if row["id"] > last_id), len(rows))
        page = rows[start : start + size]
        more = start + size < len(rows)
        after_cursor = self._cursor(page[-1]["id"]) if page else None
        before_cursor = self._cursor(page[0]["id"]) if page else None
        origin = self.api.next_page_host or self.api.url
        following = f"{origin}{path}?{urlencode({'page[size]': size, 'page[after]': after_cursor})}"
        body = {
            "articles": page,
            "meta": {
                "has_more": more,
                "after_cursor": after_cursor,
                "before_cursor": before_cursor,
            },
            "links": {"next": following if more else None, "prev": None},
        }
        self._json(200, body)

    @staticmethod
    def _cursor(article_id: int) -> str:
        return base64.urlsafe_b64encode(str(article_id).encode()).decode()

    def _article(self, article: FakeArticle) -> dict[str, Any]:
        return {
            "id": article.id,
            "url": f"{self.api.url}/api/v2/help_center/{article.locale}/articles/{article.id}.json",
            "html_url": article.html_url,
            "author_id": 9001,
            "comments_disabled": False,
            "draft": article.draft,
            "promoted": False,
            "position": 0,
            "vote_sum": 0,
            "vote_count": 0,
            "section_id": article.section_id,
            "created_at": "2024-01-01T00:00:00Z",
            "updated_at": article.updated_at,
            "edited_at": article.updated_at,
            "name": article.title,
            "title": article.title,
            "source_locale": "en-us",
            "locale": article.locale,
            "outdated": False,
            "outdated_locales": [],
            "permission_group_id": 1,
            "user_segment_id": None,
            "label_names": article.labels,
            "content_tag_ids": [],
            "body": article.body,
        }

    def _not_found(self) -> None:
        self._json(404, {"error": "RecordNotFound", "description": "Not found"})

    def _json(self, status: int, payload: object, headers: Mapping[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
