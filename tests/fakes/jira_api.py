"""A loopback stand-in for the parts of Jira's REST API the Jira connector calls, in Jira's own
shapes, as Cloud (v3) or Data Center (v2) answers them. Standard library only; it shares no
code with the connector.

  Cloud       GET /rest/api/3/search/jql?jql=&fields=&maxResults=&nextPageToken=
              {"issues": [...], "nextPageToken": "...", "isLast": false}
  Data Center GET /rest/api/2/search?jql=&fields=&startAt=&maxResults=
              {"startAt", "maxResults", "total", "issues": [...]}
  both        GET /rest/api/{3|2}/issue/{key}?fields=
              GET /rest/api/{3|2}/issue/{key}/comment?startAt=&maxResults=
              {"startAt", "maxResults", "total", "comments": [...]}

An issue carries only the fields asked for (its `key` and `id` always); its `comment` field holds
the first `comments_in_search` comments with the `total`. Bodies are sent as stored: a test
gives Cloud issues Atlassian Document Format and Data Center issues wiki markup.

JQL understood: clauses joined by AND, in parentheses or not — `project = X`, `labels = x`,
`status = "X"`, `key = X-1`, `updated >= "yyyy/MM/dd HH:mm"` (read in the account's time zone,
`timezone_hours`) — and a trailing ORDER BY; anything else is a 400 with Jira's
`errorMessages`, as is an empty (unbounded) query on Cloud. Cloud wants basic auth
(email:API token), Data Center a Bearer personal access token; a wrong one is 401.
`fail_next` queues answers sent before the real ones: (429, {"Retry-After": "1"}), (503, {}).

    with FakeJiraApi(deployment="cloud", email="a@example.com", token="t0k") as jira:
        base_url = jira.url
"""

import base64
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from tests.fakes.loopback import LoopbackServer

DEFAULT_FIELDS = ("summary", "description", "comment", "status", "labels", "updated")


@dataclass
class FakeJiraComment:
    id: int
    body: Any  # ADF (a dict) on Cloud, wiki markup (a str) on Data Center
    author: str = "Ada Lovelace"


@dataclass
class FakeJiraIssue:
    key: str
    summary: str
    description: Any
    updated: str  # Jira's form: 2025-03-01T10:00:00.000+0000
    status: str = "Open"
    labels: list[str] = field(default_factory=list)
    comments: list[FakeJiraComment] = field(default_factory=list)


@dataclass(frozen=True)
class SeenRequest:
    method: str
    path: str
    query: dict[str, str]
    authorization: str
    at: float


class JqlError(ValueError):
    pass


def adf(*paragraphs: str) -> dict[str, Any]:
    """An Atlassian Document Format document of plain paragraphs."""
    return {
        "type": "doc",
        "version": 1,
        "content": [
            {"type": "paragraph", "content": [{"type": "text", "text": text}]}
            for text in paragraphs
        ],
    }


def jira_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000+0000")


class FakeJiraApi(LoopbackServer):
    def __init__(self, *, deployment: str = "cloud", email: str = "", token: str = "") -> None:
        self.deployment, self.email, self.token = deployment, email, token
        self.issues: dict[str, FakeJiraIssue] = {}
        self.page_size = 100  # a test makes it small to see pagination
        self.comments_in_search = 20
        self.timezone_hours = 0  # the account's time zone, in which JQL dates are read
        # Search's eventual consistency: keys a full search (other fields than `updated`) leaves
        # out, and keys a `fields=updated` listing still shows after they were deleted.
        self.hidden_from_full_search: set[str] = set()
        self.ghosts: dict[str, str] = {}  # key -> updated
        self.fail_next: list[tuple[int, Mapping[str, str]]] = []
        self.requests: list[SeenRequest] = []
        self._listen(_Handler, host="127.0.0.1", port=0, api=self)

    @property
    def version(self) -> str:
        return "3" if self.deployment == "cloud" else "2"

    def searches(self) -> list[SeenRequest]:
        return [seen for seen in self.requests if "/search" in seen.path]

    def authorized(self, header: str) -> bool:
        if self.deployment == "cloud":
            pair = base64.b64encode(f"{self.email}:{self.token}".encode()).decode()
            return header == f"Basic {pair}"
        return header == f"Bearer {self.token}"

    def matching(self, jql: str) -> list[FakeJiraIssue]:
        where = re.split(r"\s+order\s+by\s+", jql, flags=re.IGNORECASE)[0].strip()
        if not where:
            if self.deployment == "cloud":
                raise JqlError(
                    "Unbounded JQL queries are not allowed here. "
                    "Please add a search restriction to your query."
                )
            return sorted(self.issues.values(), key=_number)
        clauses = _clauses(where)
        return sorted(
            (issue for issue in self.issues.values() if all(c(issue) for c in clauses)),
            key=_number,
        )

    def account_time(self, value: str) -> datetime:
        zone = timedelta(hours=self.timezone_hours)
        for form in ("%Y/%m/%d %H:%M", "%Y-%m-%d %H:%M", "%Y/%m/%d", "%Y-%m-%d"):
            try:
                return datetime.strptime(value, form).replace(tzinfo=UTC) - zone
            except ValueError:
                continue
        raise JqlError(f"Date value '{value}' for field 'updated' is invalid.")


def _number(issue: FakeJiraIssue) -> tuple[str, int]:
    project, _, number = issue.key.partition("-")
    return project, int(number)


def _clauses(where: str) -> list[Any]:
    where = where.strip()
    while where.startswith("(") and where.endswith(")") and _balanced(where[1:-1]):
        where = where[1:-1].strip()
    parts = _split_and(where)
    if len(parts) > 1:
        return [clause for part in parts for clause in _clauses(part)]
    match = re.fullmatch(r"(\w+)\s*(=|>=)\s*(\"[^\"]*\"|'[^']*'|\S+)", where)
    if not match:
        raise JqlError(f"Error in the JQL Query: cannot read '{where[:40]}'.")
    name, operator, raw = (
        match.group(1).lower(),
        match.group(2),
        match.group(3).strip("\"'"),
    )
    if operator != "=":
        raise JqlError(f"The operator '{operator}' is not supported by the '{name}' field.")
    tests = {
        "project": lambda issue: issue.key.partition("-")[0].lower() == raw.lower(),
        "labels": lambda issue: raw in issue.labels,
        "status": lambda issue: issue.status.lower() == raw.lower(),
        "key": lambda issue: issue.key.lower() == raw.lower(),
    }
    if name not in tests:
        raise JqlError(f"Field '{name}' does not exist or you do not have permission to view it.")
    return [tests[name]]


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


_AND = re.compile(r"\s+and\s+", re.IGNORECASE)


def _split_and(where: str) -> list[str]:
    """The clauses joined by AND outside parentheses and quotes."""
    parts, depth, start, quoted, position = [], 0, 0, "", 0
    while position < len(where):
        joint = _AND.match(where, position) if not quoted and depth == 0 else None
        if joint:
            parts.append(where[start:position])
            start = position = joint.end()
            continue
        char = where[position]
        if quoted:
            quoted = "" if char == quoted else quoted
        elif char in "\"'":
            quoted = char
        elif char in "()":
            depth += 1 if char == "(" else -1
        position += 1
    parts.append(where[start:])
    return [part.strip() for part in parts if part.strip()]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    api: FakeJiraApi

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        authorization = self.headers.get("Authorization", "")
        api = self.api
        api.requests.append(SeenRequest("GET", parts.path, query, authorization, time.time()))
        if api.fail_next:
            status, headers = api.fail_next.pop(0)
            return self._json(status, {"errorMessages": ["Rate limit exceeded."]}, headers)
        if not api.authorized(authorization):
            return self._text(401, "Client must be authenticated to access this resource.")
        prefix = f"/rest/api/{api.version}/"
        if not parts.path.startswith(prefix):
            return self._json(404, {"errorMessages": ["Not found."], "errors": {}})
        route = parts.path.removeprefix(prefix)
        try:
            if route == ("search/jql" if api.deployment == "cloud" else "search"):
                return self._search(query)
        except JqlError as exc:
            return self._json(400, {"errorMessages": [str(exc)], "errors": {}})
        segments = [unquote(s) for s in route.split("/")]
        issue = (
            api.issues.get(segments[1]) if segments[0] == "issue" and len(segments) > 1 else None
        )
        if issue is not None and len(segments) == 2:
            return self._json(200, self._issue(issue, _fields(query)))
        if issue is not None and segments[2:] == ["comment"]:
            return self._comments(issue, query)
        self._json(
            404,
            {"errorMessages": ["Issue does not exist or you do not have permission to see it."]},
        )

    def _search(self, query: Mapping[str, str]) -> None:
        api = self.api
        if "jql" not in query and api.deployment == "cloud":
            raise JqlError("Unbounded JQL queries are not allowed here.")
        clauses = query.get("jql", "")
        found = [
            issue
            for issue in api.matching(_without_updated(clauses))
            if _updated_since(api, issue, clauses)
        ]
        size = max(1, min(int(query.get("maxResults", 50)), api.page_size))
        fields = _fields(query)
        if fields == ("updated",):
            found += [FakeJiraIssue(key, "", None, updated) for key, updated in api.ghosts.items()]
        else:
            found = [issue for issue in found if issue.key not in api.hidden_from_full_search]
        if api.deployment == "cloud":
            token = query.get("nextPageToken", "")
            start = int(base64.b64decode(token).decode().removeprefix("at:")) if token else 0
            page = found[start : start + size]
            last = start + size >= len(found)
            body: dict[str, Any] = {"issues": [self._issue(i, fields) for i in page]}
            body["isLast"] = last
            if not last:
                body["nextPageToken"] = base64.b64encode(f"at:{start + size}".encode()).decode()
            return self._json(200, body)
        start = int(query.get("startAt", 0))
        page = found[start : start + size]
        return self._json(
            200,
            {
                "expand": "schema,names",
                "startAt": start,
                "maxResults": size,
                "total": len(found),
                "issues": [self._issue(issue, fields) for issue in page],
            },
        )

    def _issue(self, issue: FakeJiraIssue, fields: tuple[str, ...]) -> dict[str, Any]:
        number = 10000 + _number(issue)[1]
        values: dict[str, Any] = {
            "summary": issue.summary,
            "description": issue.description,
            "status": {
                "name": issue.status,
                "id": "3",
                "statusCategory": {"key": "done"},
            },
            "labels": list(issue.labels),
            "updated": issue.updated,
            "comment": {
                "comments": [self._comment(c) for c in issue.comments][
                    : self.api.comments_in_search
                ],
                "maxResults": self.api.comments_in_search,
                "total": len(issue.comments),
                "startAt": 0,
            },
        }
        return {
            "expand": "renderedFields,names,schema,operations,editmeta,changelog",
            "id": str(number),
            "self": f"{self.api.url}/rest/api/{self.api.version}/issue/{number}",
            "key": issue.key,
            "fields": {name: values[name] for name in fields if name in values},
        }

    def _comment(self, comment: FakeJiraComment) -> dict[str, Any]:
        return {
            "self": f"{self.api.url}/rest/api/{self.api.version}/comment/{comment.id}",
            "id": str(comment.id),
            "author": {"displayName": comment.author, "active": True},
            "body": comment.body,
            "created": "2025-01-01T10:00:00.000+0000",
            "updated": "2025-01-01T10:00:00.000+0000",
        }

    def _comments(self, issue: FakeJiraIssue, query: Mapping[str, str]) -> None:
        start = int(query.get("startAt", 0))
        size = max(1, min(int(query.get("maxResults", 50)), self.api.page_size))
        page = issue.comments[start : start + size]
        self._json(
            200,
            {
                "startAt": start,
                "maxResults": size,
                "total": len(issue.comments),
                "comments": [self._comment(comment) for comment in page],
            },
        )

    def _json(self, status: int, payload: object, headers: Mapping[str, str] | None = None) -> None:
        self._send(
            status,
            json.dumps(payload).encode(),
            "application/json;charset=UTF-8",
            headers,
        )

    def _text(self, status: int, text: str) -> None:
        self._send(status, text.encode(), "text/plain;charset=UTF-8", None)

    def _send(self, status: int, data: bytes, kind: str, headers: Mapping[str, str] | None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


_UPDATED = re.compile(r"\s+AND\s+updated\s*>=\s*\"([^\"]+)\"", re.IGNORECASE)


def _without_updated(jql: str) -> str:
    return _UPDATED.sub("", jql)


def _updated_since(api: FakeJiraApi, issue: FakeJiraIssue, jql: str) -> bool:
    found = _UPDATED.search(jql)
    if not found:
        return True
    since = api.account_time(found.group(1))
    moment = datetime.strptime(issue.updated, "%Y-%m-%dT%H:%M:%S.%f%z")
    return moment.replace(second=0, microsecond=0) >= since


def _fields(query: Mapping[str, str]) -> tuple[str, ...]:
    asked = [name.strip() for name in query.get("fields", "").split(",") if name.strip()]
    return tuple(asked) if asked else DEFAULT_FIELDS
