"""A loopback stand-in for the parts of GitHub's API the issues-and-discussions connector calls,
in GitHub's own shapes. Standard library only; it shares no code with the connector.

  GET  /repos/{owner}/{repo}/issues?state=&labels=&since=&per_page=&page=
       issues (and pull requests, which carry a "pull_request" key), most recently updated
       first, paginated with a Link header (rel="next", rel="last")
  GET  /repos/{owner}/{repo}/issues/{number}/comments?per_page=&page=
  POST /graphql          repository.discussions (nodes, pageInfo) with comments and isAnswer

A wrong token is 401 "Bad credentials"; an unknown repository or issue is 404 "Not Found";
GraphQL without a token is 401, as GitHub answers. `fail_next` queues answers sent before the
real ones: (403, {"Retry-After": "1", "X-RateLimit-Remaining": "0"}), (429, ...), (502, {}).

    with FakeGitHubApi(owner="octo", repo="guide", token="t0k") as github:
        settings.GITHUB_API_URL = github.url
"""

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from tests.fakes.loopback import LoopbackServer

WEB = "https://github.com"


@dataclass
class FakeComment:
    id: int
    body: str
    author: str = "octocat"
    is_answer: bool = False  # discussions only


@dataclass
class FakeIssue:
    number: int
    title: str
    body: str
    updated_at: str
    state: str = "open"
    labels: list[str] = field(default_factory=list)
    comments: list[FakeComment] = field(default_factory=list)
    pull_request: bool = False


@dataclass
class FakeDiscussion:
    number: int
    title: str
    body: str
    updated_at: str
    closed: bool = False
    labels: list[str] = field(default_factory=list)
    comments: list[FakeComment] = field(default_factory=list)


@dataclass(frozen=True)
class SeenRequest:
    method: str
    path: str
    query: dict[str, str]
    authorization: str
    at: float


class FakeGitHubApi(LoopbackServer):
    def __init__(self, *, owner: str, repo: str, token: str | None = None) -> None:
        self.owner, self.repo = owner, repo
        self.token = token  # None: a public repository, read without one
        self.issues: dict[int, FakeIssue] = {}
        self.discussions: dict[int, FakeDiscussion] = {}
        self.page_size = 100  # GitHub's maximum; a test makes it small to see pagination
        self.next_page_host = ""  # set: rel="next" links point at this origin instead
        self.fail_next: list[tuple[int, Mapping[str, str]]] = []
        self.requests: list[SeenRequest] = []
        self._listen(_Handler, host="127.0.0.1", port=0, api=self)

    @property
    def repo_url(self) -> str:
        return f"{WEB}/{self.owner}/{self.repo}"

    def requests_to(self, fragment: str) -> list[SeenRequest]:
        return [seen for seen in self.requests if fragment in seen.path]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    api: FakeGitHubApi

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        parts = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        authorization = self.headers.get("Authorization", "")
        self.api.requests.append(SeenRequest(method, parts.path, query, authorization, time.time()))
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else {}
        if self.api.fail_next:
            status, headers = self.api.fail_next.pop(0)
            return self._json(status, {"message": "API rate limit exceeded"}, headers)
        token = authorization.removeprefix("Bearer ").removeprefix("token ")
        if authorization and token != self.api.token:
            return self._json(401, {"message": "Bad credentials", "status": "401"})
        if self.api.token is not None and not authorization:
            return self._json(404, {"message": "Not Found", "status": "404"})  # private repo
        if method == "POST" and parts.path == "/graphql":
            if not authorization:
                return self._json(
                    401, {"message": "This endpoint requires you to be authenticated."}
                )
            return self._json(200, self._graphql(body))
        prefix = f"/repos/{self.api.owner}/{self.api.repo}/issues"
        if parts.path == prefix:
            return self._page(parts.path, query, self._issues(query))
        segments = parts.path.removeprefix(prefix + "/").split("/")
        if parts.path.startswith(prefix + "/") and len(segments) == 2 and segments[1] == "comments":
            issue = self.api.issues.get(int(segments[0])) if segments[0].isdigit() else None
            if issue is not None:
                comments = [self._comment(issue, comment) for comment in issue.comments]
                return self._page(parts.path, query, comments)
        self._json(404, {"message": "Not Found", "status": "404"})

    # --- REST ---------------------------------------------------------------------------------

    def _issues(self, query: Mapping[str, str]) -> list[dict[str, Any]]:
        state = query.get("state", "open")
        wanted = {label for label in query.get("labels", "").split(",") if label}
        since = query.get("since", "")
        chosen = [
            issue
            for issue in self.api.issues.values()
            if (state == "all" or issue.state == state)
            and wanted <= set(issue.labels)
            and (not since or issue.updated_at >= since)
        ]
        chosen.sort(key=lambda issue: issue.updated_at, reverse=True)
        return [self._issue(issue) for issue in chosen]

    def _issue(self, issue: FakeIssue) -> dict[str, Any]:
        kind = "pull" if issue.pull_request else "issues"
        shown: dict[str, Any] = {
            "id": 1000 + issue.number,
            "number": issue.number,
            "title": issue.title,
            "body": issue.body,
            "state": issue.state,
            "labels": [{"id": n, "name": name} for n, name in enumerate(issue.labels)],
            "user": {"login": "octocat"},
            "comments": len(issue.comments),
            "html_url": f"{self.api.repo_url}/{kind}/{issue.number}",
            "updated_at": issue.updated_at,
        }
        if issue.pull_request:
            shown["pull_request"] = {"html_url": shown["html_url"]}
        return shown

    def _comment(self, issue: FakeIssue, comment: FakeComment) -> dict[str, Any]:
        return {
            "id": comment.id,
            "body": comment.body,
            "user": {"login": comment.author},
            "html_url": f"{self.api.repo_url}/issues/{issue.number}#issuecomment-{comment.id}",
            "updated_at": issue.updated_at,
        }

    def _page(self, path: str, query: Mapping[str, str], rows: list[dict[str, Any]]) -> None:
        size = min(int(query.get("per_page", 30)), self.api.page_size)
        page = int(query.get("page", 1))
        last = max(1, -(-len(rows) // size))
        links = []
        if page < last:
            links.append(f'<{self._link(path, query, page + 1)}>; rel="next"')
            links.append(f'<{self._link(path, query, last)}>; rel="last"')
        headers = {"Link": ", ".join(links)} if links else {}
        self._json(200, rows[(page - 1) * size : page * size], headers)

    def _link(self, path: str, query: Mapping[str, str], page: int) -> str:
        origin = self.api.next_page_host or self.api.url
        return f"{origin}{path}?{urlencode({**query, 'page': page})}"

    # --- GraphQL ------------------------------------------------------------------------------

    def _graphql(self, body: Mapping[str, Any]) -> dict[str, Any]:
        variables = body.get("variables") or {}
        if (variables.get("owner"), variables.get("name")) != (
            self.api.owner,
            self.api.repo,
        ):
            return {
                "data": {"repository": None},
                "errors": [
                    {
                        "type": "NOT_FOUND",
                        "message": "Could not resolve to a Repository",
                    }
                ],
            }
        ordered = sorted(self.api.discussions.values(), key=lambda d: d.updated_at, reverse=True)
        start = int(variables.get("after") or 0)
        size = min(50, self.api.page_size)
        page = ordered[start : start + size]
        more = start + size < len(ordered)
        nodes = [self._discussion(discussion) for discussion in page]
        info = {"hasNextPage": more, "endCursor": str(start + size) if more else None}
        return {"data": {"repository": {"discussions": {"pageInfo": info, "nodes": nodes}}}}

    def _discussion(self, discussion: FakeDiscussion) -> dict[str, Any]:
        url = f"{self.api.repo_url}/discussions/{discussion.number}"
        return {
            "number": discussion.number,
            "title": discussion.title,
            "body": discussion.body,
            "url": url,
            "updatedAt": discussion.updated_at,
            "closed": discussion.closed,
            "labels": {"nodes": [{"name": name} for name in discussion.labels]},
            "comments": {
                "nodes": [
                    {
                        "id": f"DC_kwDO{comment.id}",
                        "url": f"{url}#discussioncomment-{comment.id}",
                        "body": comment.body,
                        "isAnswer": comment.is_answer,
                        "author": {"login": comment.author},
                    }
                    for comment in discussion.comments
                ]
            },
        }

    def _json(self, status: int, payload: object, headers: Mapping[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
