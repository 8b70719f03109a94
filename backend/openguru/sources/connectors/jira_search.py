"""Jira's REST API as the Jira connector reads it, for both deployments:

- Cloud: `GET /rest/api/3/search/jql` (pages follow `nextPageToken` until `isLast`), basic auth
  with the account's email and an API token, bodies in Atlassian Document Format;
- Data Center: `GET /rest/api/2/search` (pages by `startAt`/`maxResults` up to `total`), a
  personal access token as Bearer, bodies in wiki markup.

An issue's comments come with it in the `comment` field; when there are more than that field
holds, the rest is read from `/rest/api/{2|3}/issue/{key}/comment` by `startAt`.
"""

import base64
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.connectors.http import ApiClient

CLOUD, DATACENTER = "cloud", "datacenter"
DEPLOYMENTS = (CLOUD, DATACENTER)
# Keys and `updated` only: a cheap listing (Jira returns fewer per page when it must).
LIST_FIELDS, LIST_PAGE = "updated", 1000
ISSUE_FIELDS, ISSUE_PAGE = "summary,description,comment,status,labels,updated", 100
COMMENT_PAGE = 100


class JiraApi:
    def __init__(self, *, base_url: str, deployment: str, email: str, token: str) -> None:
        self.cloud = deployment == CLOUD
        self._version = "3" if self.cloud else "2"
        headers = {"Accept": "application/json", "User-Agent": "OpenGuru"}
        if token and self.cloud:
            pair = base64.b64encode(f"{email}:{token}".encode()).decode()
            headers["Authorization"] = f"Basic {pair}"
        elif token:
            headers["Authorization"] = f"Bearer {token}"
        self._api = ApiClient(
            base_url=base_url, headers=headers, service="Jira", subject="the project or issue"
        )

    def search(self, jql: str, *, fields: str, page_size: int) -> Iterator[dict[str, Any]]:
        """Every issue the JQL finds, with the fields asked for."""
        if self.cloud:
            yield from self._search_cloud(jql, fields, page_size)
        else:
            yield from self._search_datacenter(jql, fields, page_size)

    def _search_cloud(self, jql: str, fields: str, page_size: int) -> Iterator[dict[str, Any]]:
        token = ""
        while True:
            params: dict[str, Any] = {"jql": jql, "fields": fields, "maxResults": page_size}
            if token:
                params["nextPageToken"] = token
            answer = self._api.get("/rest/api/3/search/jql", params).json()
            yield from answer.get("issues") or []
            token = str(answer.get("nextPageToken") or "")
            if answer.get("isLast") or not token:
                return

    def _search_datacenter(self, jql: str, fields: str, page_size: int) -> Iterator[dict[str, Any]]:
        start = 0
        while True:
            params = {"jql": jql, "fields": fields, "startAt": start, "maxResults": page_size}
            answer = self._api.get("/rest/api/2/search", params).json()
            issues = answer.get("issues") or []
            yield from issues
            start += len(issues)
            if not issues or start >= int(answer.get("total") or 0):
                return

    def issue(self, key: str) -> dict[str, Any] | None:
        """One issue with its fields; None when it is gone (deleted, moved, or no longer
        readable) since it was listed."""
        try:
            path = f"/rest/api/{self._version}/issue/{quote(key, safe='')}"
            return dict(self._api.get(path, {"fields": ISSUE_FIELDS}).json())
        except DomainError as exc:
            if exc.code == ErrorCode.REPO_NOT_FOUND:
                return None
            raise

    def comments(self, issue: dict[str, Any]) -> list[dict[str, Any]]:
        """All of an issue's comments, oldest first."""
        field = (issue.get("fields") or {}).get("comment") or {}
        comments = list(field.get("comments") or [])
        total = int(field.get("total") or len(comments))
        path = f"/rest/api/{self._version}/issue/{quote(str(issue['key']), safe='')}/comment"
        while len(comments) < total:
            params = {"startAt": len(comments), "maxResults": COMMENT_PAGE}
            answer = self._api.get(path, params).json()
            page = answer.get("comments") or []
            if not page:
                break
            comments.extend(page)
            total = int(answer.get("total") or total)
        return comments
