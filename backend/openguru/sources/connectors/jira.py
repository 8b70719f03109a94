"""Jira issues chosen by a JQL query as a connector (`connectors/base.py`), on Jira Cloud or
Data Center (`jira_search.py` speaks both).

Each run lists every issue the JQL finds with `fields=updated` only: that listing is cheap, and
an issue no longer in it (deleted, moved, or no longer matching the JQL) loses its chunks. An
issue is one item versioned by its `fields.updated` (a comment added or edited moves it). The
issues whose version moved are then read in full with one more search,
`(<JQL>) AND updated >= "<oldest changed update, less a day>"`: JQL compares dates in the
account's time zone, which a day of margin covers; an issue that search still misses is read on
its own. The first run (and a private source's every run) reads the whole JQL in full.

An issue's summary, status, labels and description are one document linked to
`<base>/browse/KEY-1`; each comment is one document linked to its permalink,
`<base>/browse/KEY-1?focusedCommentId=<id>`. Cloud bodies are Atlassian Document Format, Data
Center bodies wiki markup: both are read as plain text (`jira_text.py`).

Options: `deployment` (`cloud` or `datacenter`), `base_url`, `jql`, `email` (Cloud: the
account the API token belongs to). The token is the source's encrypted credential.
"""

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote, urlsplit

from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.connectors.base import ITEM_STATE_PREFIX, Item
from openguru.sources.connectors.jira_search import (
    CLOUD,
    DEPLOYMENTS,
    ISSUE_FIELDS,
    ISSUE_PAGE,
    LIST_FIELDS,
    LIST_PAGE,
    JiraApi,
)
from openguru.sources.connectors.jira_text import adf_text, wiki_text
from openguru.sources.loaders.base import Document, LoadRequest
from openguru.sources.loaders.ssrf import check_url

ITEM_PREFIX = "issue:"
# JQL reads a date in the account's time zone (UTC-12 to UTC+14): a day covers any of them.
CHANGED_MARGIN = timedelta(days=1)
MAX_JQL_CHARS = 2000
_ORDER_BY = re.compile(r"\border\s+by\b", re.IGNORECASE)


def jira_source_checked(
    *, url: str, options: Mapping[str, Any], token: str
) -> tuple[str, dict[str, Any]]:
    """The source's link (Jira's issue navigator for the JQL, unique per query) and its options
    as the connector reads them; a refusal names what is wrong."""
    deployment = str(options.get("deployment") or CLOUD)
    if deployment not in DEPLOYMENTS:
        raise DomainError(ErrorCode.INVALID_INPUT, "deployment is cloud or datacenter.")
    base = _base_url(url or str(options.get("base_url") or ""), deployment)
    jql = options.get("jql")
    if not isinstance(jql, str) or not jql_where(jql):
        raise DomainError(
            ErrorCode.INVALID_INPUT, "jql is a JQL query that selects issues: project = DOCS."
        )
    if len(jql) > MAX_JQL_CHARS:
        raise DomainError(ErrorCode.INVALID_INPUT, f"jql is at most {MAX_JQL_CHARS} characters.")
    email = str(options.get("email") or "").strip()
    if deployment == CLOUD and token.strip() and "@" not in email:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "Jira Cloud needs the email of the account the API token belongs to.",
        )
    checked = {"deployment": deployment, "base_url": base, "jql": jql.strip(), "email": email}
    return f"{base}/issues/?jql={quote(jql.strip(), safe='')}", checked


def _base_url(url: str, deployment: str) -> str:
    parts = urlsplit(url.strip())
    schemes = ("https", "http") if settings.CRAWLER_ALLOW_LOOPBACK else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "Enter the Jira site's https address, such as https://your-site.atlassian.net.",
        )
    # A Cloud site is its host; a Data Center one may live under a path (/jira).
    path = "" if deployment == CLOUD else parts.path.rstrip("/")
    return f"{parts.scheme}://{parts.netloc}{path}"


def jql_where(jql: str) -> str:
    """The JQL without its ORDER BY (outside quotes): the part another clause can join."""
    quote_char = ""
    for position, char in enumerate(jql):
        if quote_char:
            quote_char = "" if char == quote_char else quote_char
        elif char in "'\"":
            quote_char = char
        elif char in "oO" and _ORDER_BY.match(jql, position) and _word_start(jql, position):
            return jql[:position].strip()
    return jql.strip()


def _word_start(text: str, position: int) -> bool:
    return position == 0 or not (text[position - 1].isalnum() or text[position - 1] == "_")


def _moment(updated: str) -> datetime | None:
    """Jira's `2025-03-01T10:00:00.000+0000`."""
    try:
        return datetime.strptime(updated, "%Y-%m-%dT%H:%M:%S.%f%z")
    except ValueError:
        return None


class JiraConnector:
    def __init__(self, request: LoadRequest) -> None:
        options = request.options
        self._base = str(options.get("base_url") or "")
        check_url(self._base)  # the site is the admin's to name: no private addresses
        self._where = jql_where(str(options.get("jql") or ""))
        self._api = JiraApi(
            base_url=self._base,
            deployment=str(options.get("deployment") or CLOUD),
            email=str(options.get("email") or ""),
            token=request.credential,
        )
        self._private = request.private
        self._previous = {
            key.removeprefix(ITEM_STATE_PREFIX + ITEM_PREFIX): str(state.get("version") or "")
            for key, state in request.fetch_state.items()
            if key.startswith(ITEM_STATE_PREFIX + ITEM_PREFIX)
        }
        self._listed: dict[str, str] = {}
        self._changed: dict[str, dict[str, Any]] | None = None

    def list_items(self) -> Iterator[Item]:
        for issue in self._api.search(self._where, fields=LIST_FIELDS, page_size=LIST_PAGE):
            key = str(issue["key"])
            updated = str((issue.get("fields") or {}).get("updated") or "")
            self._listed[key] = updated
            yield Item(key=ITEM_PREFIX + key, version=updated, link=self._browse(key))

    def fetch(self, item: Item) -> Sequence[Document]:
        if self._changed is None:
            self._changed = {
                str(issue["key"]): issue
                for issue in self._api.search(
                    self._changed_jql(), fields=ISSUE_FIELDS, page_size=ISSUE_PAGE
                )
            }
        key = item.key.removeprefix(ITEM_PREFIX)
        issue = self._changed.pop(key, None) or self._api.issue(key)
        return self._documents(issue) if issue is not None else []

    def _changed_jql(self) -> str:
        """The JQL of the issues to read in full: all of them on a first run, else those
        updated since the oldest change listed (less the time-zone margin)."""
        if self._private or not self._previous:
            return self._where
        moved = [
            _moment(updated)
            for key, updated in self._listed.items()
            if self._previous.get(key) != updated
        ]
        if not moved or None in moved:
            return self._where
        since = min(moment for moment in moved if moment is not None) - CHANGED_MARGIN
        return f'({self._where}) AND updated >= "{since:%Y/%m/%d %H:%M}"'

    def _documents(self, issue: Mapping[str, Any]) -> list[Document]:
        key = str(issue["key"])
        fields = issue.get("fields") or {}
        read = adf_text if self._api.cloud else wiki_text
        summary = str(fields.get("summary") or "")
        status = str((fields.get("status") or {}).get("name") or "")
        labels = [str(label) for label in fields.get("labels") or []]
        title = f"{key}: {summary}"
        head = f"{title}\nStatus: {status}"
        if labels:
            head += f"\nLabels: {', '.join(labels)}"
        metadata = {"kind": "jira_issue", "key": key, "status": status, "labels": labels}
        link = self._browse(key)
        documents = [
            self._document(title, link, f"{head}\n\n{read(fields.get('description'))}", metadata)
        ]
        for comment in self._api.comments(dict(issue)):
            author = (comment.get("author") or {}).get("displayName") or "someone"
            text = f"Comment by {author} on {title}:\n\n{read(comment.get('body'))}"
            comment_id = str(comment["id"])
            documents.append(
                self._document(
                    title,
                    f"{link}?focusedCommentId={quote(comment_id, safe='')}",
                    text,
                    {**metadata, "comment_id": comment_id},
                )
            )
        return documents

    def _document(self, title: str, link: str, text: str, metadata: Mapping[str, Any]) -> Document:
        return Document(
            title=title, link="" if self._private else link, text=text, metadata=metadata
        )

    def _browse(self, key: str) -> str:
        return f"{self._base}/browse/{quote(key, safe='')}"
