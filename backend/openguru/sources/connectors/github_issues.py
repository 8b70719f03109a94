"""GitHub issues and discussions of one repository as a connector (`connectors/base.py`).

Issues and their comments come from the REST API, discussions from GraphQL (which GitHub only
answers with a token: without one, a public repository's issues are read and its discussions
are not). An issue or discussion is one item, versioned by its updated_at (a new or edited
comment moves it); its body is one document linked to the item, each comment one document
linked to the comment's own anchor (`…/issues/N#issuecomment-ID`,
`…/discussions/N#discussioncomment-ID`), so a citation opens the comment itself.

Options: `state` ("all", "open" or "closed"), `labels` (every one must be on the item),
`since` (ISO date: only items updated since), `discussions` (default true).
"""

from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlsplit

from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.connectors.base import Item
from openguru.sources.connectors.github_discussions import discussion_documents, discussions
from openguru.sources.connectors.http import ApiClient
from openguru.sources.loaders.base import Document, LoadRequest

PER_PAGE = 100
_STATES = ("all", "open", "closed")


def repository_of(url: str) -> tuple[str, str]:
    """(owner, name) of https://github.com/owner/name, or a user-readable refusal."""
    parts = urlsplit(url.strip())
    segments = [s for s in parts.path.removesuffix(".git").split("/") if s]
    host = (parts.hostname or "").lower()
    if parts.scheme != "https" or host not in ("github.com", "www.github.com"):
        raise DomainError(
            ErrorCode.INVALID_INPUT, "Only https://github.com/<owner>/<repository> links work."
        )
    if len(segments) != 2:
        raise DomainError(
            ErrorCode.INVALID_INPUT, "Link the repository itself: https://github.com/owner/repo."
        )
    return segments[0], segments[1]


def options_checked(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as the connector reads them; a refusal names the one that is wrong."""
    state = str(options.get("state") or "all")
    if state not in _STATES:
        raise DomainError(ErrorCode.INVALID_INPUT, "state is one of all, open or closed.")
    labels = options.get("labels") or []
    if isinstance(labels, str):
        labels = [label.strip() for label in labels.split(",")]
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        raise DomainError(ErrorCode.INVALID_INPUT, "labels is a list of label names.")
    return {
        "state": state,
        "labels": [label for label in labels if label],
        "since": _since(str(options.get("since") or "").strip()),
        "discussions": bool(options.get("discussions", True)),
    }


def _since(value: str) -> str:
    """The `since` option as GitHub wants it (YYYY-MM-DDTHH:MM:SSZ, UTC); "" for none."""
    if not value:
        return ""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise DomainError(
            ErrorCode.INVALID_INPUT, "since is a date such as 2025-01-31 (or a full ISO time)."
        ) from None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class GitHubIssuesConnector:
    def __init__(self, request: LoadRequest) -> None:
        self._owner, self._name = repository_of(request.url)
        self._options = options_checked(request.options)
        self._private = request.private
        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": "OpenGuru",
        }
        if request.credential:
            headers["Authorization"] = f"Bearer {request.credential}"
        self._has_token = bool(request.credential)
        self._api = ApiClient(base_url=settings.GITHUB_API_URL, headers=headers, service="GitHub")
        self._listed: dict[str, dict[str, Any]] = {}

    def list_items(self) -> Iterator[Item]:
        for issue in self._issues():
            key = f"issue:{issue['number']}"
            self._listed[key] = issue
            yield Item(key=key, version=str(issue["updated_at"]), link=str(issue["html_url"]))
        if not (self._options["discussions"] and self._has_token):
            return
        for discussion in discussions(self._api, self._owner, self._name, self._options):
            key = f"discussion:{discussion['number']}"
            self._listed[key] = discussion
            yield Item(key=key, version=str(discussion["updatedAt"]), link=discussion["url"])

    def fetch(self, item: Item) -> Sequence[Document]:
        listed = self._listed[item.key]
        repo = f"{self._owner}/{self._name}"
        if item.key.startswith("discussion:"):
            return discussion_documents(listed, repo=repo, private=self._private)
        return self._issue_documents(listed, repo)

    def _issues(self) -> Iterator[dict[str, Any]]:
        params: dict[str, Any] = {
            "state": self._options["state"],
            "per_page": PER_PAGE,
            "sort": "updated",
            "direction": "desc",
        }
        if self._options["labels"]:
            params["labels"] = ",".join(self._options["labels"])
        if self._options["since"]:
            params["since"] = self._options["since"]
        for page in self._api.pages(f"{self._repo_path()}/issues", params):
            # The issues listing holds pull requests too; they are not issues here.
            yield from (issue for issue in page if "pull_request" not in issue)

    def _issue_documents(self, issue: Mapping[str, Any], repo: str) -> list[Document]:
        number = issue["number"]
        title = f"{repo}#{number}: {issue['title']}"
        labels = [str(label.get("name", "")) for label in issue.get("labels") or []]
        head = f"{issue['title']}\nState: {issue['state']}"
        if labels:
            head += f"\nLabels: {', '.join(labels)}"
        metadata = {"kind": "issue", "number": number, "state": issue["state"], "labels": labels}
        documents = [
            self._document(
                title, issue["html_url"], f"{head}\n\n{issue.get('body') or ''}", metadata
            )
        ]
        path = f"{self._repo_path()}/issues/{number}/comments"
        for page in self._api.pages(path, {"per_page": PER_PAGE}):
            for comment in page:
                author = (comment.get("user") or {}).get("login", "someone")
                text = f"Comment by {author} on {issue['title']}:\n\n{comment.get('body') or ''}"
                documents.append(
                    self._document(
                        title, comment["html_url"], text, {**metadata, "comment_id": comment["id"]}
                    )
                )
        return documents

    def _document(self, title: str, link: str, text: str, metadata: Mapping[str, Any]) -> Document:
        return Document(
            title=title, link="" if self._private else link, text=text, metadata=metadata
        )

    def _repo_path(self) -> str:
        return f"/repos/{quote(self._owner, safe='')}/{quote(self._name, safe='')}"
