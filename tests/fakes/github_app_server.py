"""A loopback stand-in for the parts of GitHub's API a GitHub App's bot calls, in GitHub's own
shapes; it shares no code with the bot.

  GET  /app                                          the app (JWT: RS256, iss = the app id)
  POST /app/installations/{id}/access_tokens         201 {"token", "expires_at", ...} (JWT)
  GET  /installation/repositories                    {"total_count", "repositories"} (token)
  POST /repos/{owner}/{repo}/issues/{number}/comments  201, the comment (token)
  POST /graphql                                      addDiscussionComment (token)

A JWT that does not verify with the app's public key, or an installation token that is unknown
or expired (`expire_tokens`), is 401 "Bad credentials". `fail_comments_next` queues answers
sent instead of the next comments: 429 or a secondary rate limit's 403 with Retry-After, a 5xx.

    with FakeGitHubApp(app_id="1234", slug="guru-bot", public_key=pem) as github:
        settings.GITHUB_API_URL = github.url
"""

import itertools
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import jwt

from tests.fakes.loopback import FakeHandler, HttpFailure, LoopbackApp, Route

SECONDARY = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
)


@dataclass(frozen=True)
class PostedComment:
    repository: str  # owner/name; "" for a discussion comment
    number: int  # the issue's; 0 for a discussion comment
    body: str
    token: str
    at: float
    discussion_id: str = ""
    reply_to: str | None = None


@dataclass
class Refused:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    message: str = ""


class FakeGitHubApp(LoopbackApp):
    def __init__(
        self, *, app_id: str, slug: str, public_key: str, installation_id: int = 42, **options: Any
    ) -> None:
        super().__init__(**options)
        self.app_id, self.slug, self.public_key = app_id, slug, public_key
        self.installation_id = installation_id
        self.repositories = ["octo/guide"]
        self.discussions = {"D_kwDOguide1"}  # node ids of the discussions that exist
        self.token_lifetime = 3600.0  # seconds
        self.tokens: dict[str, float] = {}  # token: when it expires (time.time())
        self.minted: list[str] = []
        self.comments: list[PostedComment] = []
        self.refused: list[tuple[Refused, float]] = []  # the comments answered with a failure
        self._to_refuse: list[Refused] = []
        self._ids = itertools.count(1001)
        self._state = threading.Lock()

    @property
    def url(self) -> str:  # type: ignore[override]
        return self.origin

    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        return [
            ("GET", re.compile(r"/app"), self._app),
            ("POST", re.compile(r"/app/installations/(\d+)/access_tokens"), self._mint),
            ("GET", re.compile(r"/installation/repositories"), self._repositories),
            (
                "POST",
                re.compile(r"/repos/([\w.-]+)/([\w.-]+)/issues/(\d+)/comments"),
                self._comment,
            ),
            ("POST", re.compile(r"/graphql"), self._graphql),
        ]

    def error_body(self, status: int, message: str) -> object:
        return {
            "message": message,
            "documentation_url": "https://docs.github.com/rest",
            "status": str(status),
        }

    # --- test knobs ----------------------------------------------------------------------------

    def fail_comments_next(self, *refusals: Refused) -> None:
        with self._state:
            self._to_refuse.extend(refusals)

    def expire_tokens(self) -> None:
        """Every token minted so far is past its expiry (GitHub then answers 401)."""
        with self._state:
            self.tokens = dict.fromkeys(self.tokens, 0.0)

    # --- the API -------------------------------------------------------------------------------

    def _app_jwt(self, handler: FakeHandler) -> None:
        given = handler.headers.get("Authorization", "")
        try:
            claims = jwt.decode(
                given.removeprefix("Bearer "), self.public_key, algorithms=["RS256"]
            )
        except jwt.PyJWTError as exc:
            raise HttpFailure(401, "A JSON web token could not be decoded") from exc
        if not given.startswith("Bearer ") or str(claims.get("iss")) != self.app_id:
            raise HttpFailure(401, "'Issuer' claim ('iss') must be an Integer")

    def _token(self, handler: FakeHandler) -> str:
        given = handler.headers.get("Authorization", "")
        token = given.split(" ", 1)[1] if " " in given else ""
        with self._state:
            expires = self.tokens.get(token)
        if expires is None or expires <= time.time():
            raise HttpFailure(401, "Bad credentials")
        return token

    def _app(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._app_jwt(handler)
        owner = {"login": "octo", "id": 1, "type": "Organization"}
        handler.send_json(200, {"id": int(self.app_id), "slug": self.slug, "node_id": "A_kw1",
                                "name": "Guru Bot", "owner": owner, "permissions": {"issues": "write"},
                                "events": ["issues", "issue_comment"]})  # fmt: skip

    def _mint(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        self._app_jwt(handler)
        if int(match.group(1)) != self.installation_id:
            raise HttpFailure(404, "Not Found")
        with self._state:
            token = f"ghs_{len(self.minted) + 1:04d}{'x' * 32}"
            expires = time.time() + self.token_lifetime
            self.tokens[token] = expires
            self.minted.append(token)
        stamp = datetime.fromtimestamp(expires, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        handler.send_json(201, {"token": token, "expires_at": stamp,
                                "permissions": {"issues": "write", "discussions": "write"},
                                "repository_selection": "selected"})  # fmt: skip

    def _repositories(
        self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]
    ) -> None:
        self._token(handler)
        repositories = [
            {"id": index, "node_id": f"R_{index}", "name": name.split("/")[1], "full_name": name,
             "private": False, "html_url": f"https://github.com/{name}"}
            for index, name in enumerate(self.repositories, start=1)
        ]  # fmt: skip
        handler.send_json(200, {"total_count": len(repositories), "repositories": repositories})

    def _refusal(self, handler: FakeHandler) -> bool:
        with self._state:
            refusal = self._to_refuse.pop(0) if self._to_refuse else None
            if refusal:
                self.refused.append((refusal, time.monotonic()))
        if refusal is None:
            return False
        message = refusal.message or (SECONDARY if refusal.status == 403 else "Server Error")
        handler.send_json(refusal.status, self.error_body(refusal.status, message), refusal.headers)
        return True

    def _comment(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        token = self._token(handler)
        repository = f"{match.group(1)}/{match.group(2)}"
        if repository not in self.repositories:
            raise HttpFailure(404, "Not Found")
        if not str(body.get("body") or ""):
            raise HttpFailure(422, "Validation Failed")
        if self._refusal(handler):
            return
        number = int(match.group(3))
        with self._state:
            comment_id = next(self._ids)
            self.comments.append(
                PostedComment(repository, number, body["body"], token, time.monotonic())
            )
        handler.send_json(201, {
            "id": comment_id, "node_id": f"IC_kw{comment_id}",
            "url": f"{self.url}/repos/{repository}/issues/comments/{comment_id}",
            "html_url": f"https://github.com/{repository}/issues/{number}#issuecomment-{comment_id}",
            "issue_url": f"{self.url}/repos/{repository}/issues/{number}",
            "body": body["body"], "user": {"login": f"{self.slug}[bot]", "id": 9, "type": "Bot"},
            "author_association": "NONE", "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z",
        })  # fmt: skip

    def _graphql(self, handler: FakeHandler, match: re.Match[str], body: dict[str, Any]) -> None:
        token = self._token(handler)
        variables: Mapping[str, Any] = body.get("variables") or {}
        if "addDiscussionComment" not in str(body.get("query", "")):
            handler.send_json(
                200, {"errors": [{"type": "UNKNOWN", "message": "Unsupported query."}]}
            )
            return
        discussion = str(variables.get("discussionId", ""))
        if discussion not in self.discussions:
            handler.send_json(200, {"data": {"addDiscussionComment": None}, "errors": [
                {"type": "NOT_FOUND", "path": ["addDiscussionComment"],
                 "message": f"Could not resolve to a node with the global id of '{discussion}'"}]})  # fmt: skip
            return
        if self._refusal(handler):
            return
        with self._state:
            comment_id = next(self._ids)
            self.comments.append(PostedComment("", 0, str(variables.get("body", "")), token, time.monotonic(),
                                               discussion_id=discussion, reply_to=variables.get("replyToId")))  # fmt: skip
        node = f"DC_kw{comment_id}"
        handler.send_json(200, {"data": {"addDiscussionComment": {"comment": {
            "id": node, "url": f"https://github.com/octo/guide/discussions/1#discussioncomment-{comment_id}"}}}})  # fmt: skip
