"""A discussion's accepted answer as an FAQ entry of the guru (a repository's `"faq": true`):
the question and the answer, linking back to the discussion. GitHub sends `discussion`
`answered` when a maintainer marks the answer; the first answer accepted for a discussion is
kept (a source per discussion, found by its address)."""

import json
from typing import Any

from openguru.integrations.models import GitHubApp, Integration
from openguru.sources.models import DataSource
from openguru.sources.services import source_create

MAX_CHARS = 20_000  # an answer longer than this is cut: an FAQ entry is a short read


def github_faq_wanted(*, app: GitHubApp, event: str, payload: dict[str, Any]) -> bool:
    if event != "discussion" or payload.get("action") != "answered":
        return False
    repository = str((payload.get("repository") or {}).get("full_name") or "")
    setting = (app.repositories or {}).get(repository) or {}
    answer = payload.get("answer")
    return bool(setting.get("faq")) and isinstance(answer, dict) and bool(answer.get("body"))


def github_faq_add(*, integration: Integration, payload: dict[str, Any]) -> DataSource | None:
    """The FAQ source made of the discussion's accepted answer; None when it has one already."""
    discussion = payload.get("discussion") or {}
    link = str(discussion.get("html_url") or "")
    guru = integration.guru
    if (
        not link
        or DataSource.objects.filter(guru=guru, type=DataSource.Type.FAQ, url=link).exists()
    ):
        return None
    title = str(discussion.get("title") or "").strip()
    body = str(discussion.get("body") or "").strip()
    question = f"{title}\n\n{body}".strip()[:MAX_CHARS]
    answer = str(payload["answer"]["body"]).strip()[:MAX_CHARS]
    return source_create(
        guru=guru,
        type=DataSource.Type.FAQ,
        url=link,
        title=title or link,
        content=json.dumps([{"question": question, "answer": answer}]),
    )
