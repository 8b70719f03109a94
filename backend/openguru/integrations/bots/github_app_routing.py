"""Which GitHub webhook deliveries the bot answers, and what each asks: a mention of the bot
in a new issue or discussion or a comment on one, or (a repository's setting) every new issue
and discussion, with one of its labels when labels are named. Never a bot's own words."""

import re
from dataclasses import dataclass
from typing import Any

from openguru.integrations.models import GitHubApp

ANSWERED_EVENTS = {
    "issues": "opened",
    "issue_comment": "created",
    "discussion": "created",
    "discussion_comment": "created",
}


def _mention(slug: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w@/-])@{re.escape(slug)}(?:\[bot\])?(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class Ask:
    """What a delivery asks, and where the reply goes."""

    repository: str  # owner/name
    thread_id: str  # "issue/<number>" or "discussion/<number>"
    question: str
    number: int
    discussion_id: str = ""  # a discussion's node id (replies go through GraphQL)
    reply_to: str = ""  # a discussion comment's node id: the reply goes in its thread


def _without(mention: re.Pattern[str], text: str) -> str:
    """`text` without the mentions and the spaces beside them; a line with none is kept as it
    is (a code block's indentation means something)."""
    spaced = re.compile(rf"[ \t]*(?:{mention.pattern})[ \t]*", re.IGNORECASE)
    lines = text.split("\n")
    return "\n".join(spaced.sub(" ", x).strip() if mention.search(x) else x for x in lines).strip()


def _text(item: dict[str, Any]) -> str:
    return f"{item.get('title') or ''}\n\n{item.get('body') or ''}".strip()


def _labels(item: dict[str, Any]) -> set[str]:
    return {
        str(label.get("name", "")).lower()
        for label in item.get("labels") or []
        if isinstance(label, dict)
    }


def _answers_every_new(app: GitHubApp, repository: str, item: dict[str, Any]) -> bool:
    setting = (app.repositories or {}).get(repository) or {}
    if setting.get("mode") != "all":
        return False
    wanted = {str(label).lower() for label in setting.get("labels") or []}
    return not wanted or bool(wanted & _labels(item))


def github_delivery_ask(*, app: GitHubApp, event: str, payload: dict[str, Any]) -> Ask | None:
    """The question a delivery asks the bot, or None when it asks nothing of it: another event
    or action, a bot's own words (this one's included), no mention where one is needed."""
    if ANSWERED_EVENTS.get(event) != payload.get("action"):
        return None
    sender = payload.get("sender") or {}
    if sender.get("type") == "Bot" or str(sender.get("login", "")).endswith("[bot]"):
        return None
    repository = str((payload.get("repository") or {}).get("full_name") or "")
    kind = "discussion" if event.startswith("discussion") else "issue"
    item = payload.get(kind) or {}
    if not repository or not isinstance(item, dict) or not item.get("number"):
        return None
    mention = _mention(app.slug) if app.slug else None
    comment = payload.get("comment")
    if isinstance(comment, dict):  # a comment is answered when it mentions the bot
        said = str(comment.get("body") or "")
        if mention is None or not mention.search(said):
            return None
        question = _without(mention, said) or _text(item)
    else:  # a new issue or discussion: mentioned, or the repository answers every new one
        said = _text(item)
        if not (mention and mention.search(said)) and not _answers_every_new(app, repository, item):
            return None
        question = _without(mention, said) if mention else said
    reply_to = ""
    if kind == "discussion" and isinstance(comment, dict) and not comment.get("parent_id"):
        reply_to = str(comment.get("node_id") or "")
    return Ask(
        repository=repository,
        thread_id=f"{kind}/{item['number']}",
        question=question,
        number=int(item["number"]),
        discussion_id=str(item.get("node_id") or "") if kind == "discussion" else "",
        reply_to=reply_to,
    )
