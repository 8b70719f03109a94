"""A repository's discussions through GitHub's GraphQL API: listed with their comments (up to
100 each), each comment marked when it is the accepted answer."""

from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.connectors.http import ApiClient
from openguru.sources.loaders.base import Document

PAGE_SIZE = 50
DISCUSSIONS_QUERY = """
query($owner: String!, $name: String!, $after: String) {
  repository(owner: $owner, name: $name) {
    discussions(first: 50, after: $after, orderBy: {field: UPDATED_AT, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes {
        number title body url updatedAt closed
        labels(first: 20) { nodes { name } }
        comments(first: 100) { nodes { id url body isAnswer author { login } } }
      }
    }
  }
}
"""


def discussions(
    api: ApiClient, owner: str, name: str, options: Mapping[str, Any]
) -> Iterator[dict[str, Any]]:
    """The discussions that pass the source's filters (GraphQL has no such filters: applied
    here on what each page brings)."""
    after: str | None = None
    while True:
        variables = {"owner": owner, "name": name, "after": after}
        answer = api.post("/graphql", {"query": DISCUSSIONS_QUERY, "variables": variables}).json()
        connection = _discussions_of(answer)
        for node in connection.get("nodes") or []:
            if _wanted(node, options):
                yield node
        page = connection.get("pageInfo") or {}
        if not page.get("hasNextPage"):
            return
        after = page.get("endCursor")


def _discussions_of(answer: Mapping[str, Any]) -> Mapping[str, Any]:
    errors = answer.get("errors") or []
    if any(error.get("type") == "NOT_FOUND" for error in errors):
        raise DomainError(
            ErrorCode.REPO_NOT_FOUND,
            "GitHub says the repository was not found or is not readable with this token.",
        )
    repository = (answer.get("data") or {}).get("repository")
    if errors or repository is None:
        message = "; ".join(str(error.get("message", "")) for error in errors)[:200]
        raise DomainError(
            ErrorCode.FETCH_FAILED, f"GitHub refused the discussions query: {message}"
        )
    return repository.get("discussions") or {}


def _wanted(node: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
    state = options.get("state", "all")
    if state == "closed" and not node.get("closed"):
        return False
    if state == "open" and node.get("closed"):
        return False
    labels = {label["name"] for label in (node.get("labels") or {}).get("nodes") or []}
    if not set(options.get("labels") or []) <= labels:
        return False
    since = options.get("since")
    return not since or _instant(str(node["updatedAt"])) >= _instant(str(since))


def _instant(value: str) -> datetime:
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def discussion_documents(node: Mapping[str, Any], *, repo: str, private: bool) -> list[Document]:
    title = f"{repo} discussion #{node['number']}: {node['title']}"
    labels = [label["name"] for label in (node.get("labels") or {}).get("nodes") or []]
    state = "closed" if node.get("closed") else "open"
    head = f"{node['title']}\nState: {state}"
    if labels:
        head += f"\nLabels: {', '.join(labels)}"
    metadata = {"kind": "discussion", "number": node["number"], "state": state, "labels": labels}
    documents = [
        Document(
            title=title,
            link="" if private else str(node["url"]),
            text=f"{head}\n\n{node.get('body') or ''}",
            metadata=metadata,
        )
    ]
    for comment in (node.get("comments") or {}).get("nodes") or []:
        author = (comment.get("author") or {}).get("login", "someone")
        accepted = bool(comment.get("isAnswer"))
        lead = "Accepted answer" if accepted else "Comment"
        documents.append(
            Document(
                title=title,
                link="" if private else str(comment["url"]),
                text=f"{lead} by {author} on {node['title']}:\n\n{comment.get('body') or ''}",
                metadata={**metadata, "comment_id": comment["id"], "accepted_answer": accepted},
            )
        )
    return documents
