"""The GitHub App bot's answer to one delivery (run by a Celery task): the question asked
through the bots' door, then one reply comment with the whole answer (GitHub shows no edits
as they happen, and every edit would notify the thread's watchers). The reply is kept on the
delivery before it is posted, so a task retried after GitHub refused the post (a rate limit,
a 5xx) posts the same reply without asking again."""

import asyncio
import logging

from django.conf import settings

from openguru.accounts.access import guru_is_public
from openguru.answers.channels.bots import BotReply, reply_stream
from openguru.answers.channels.github import github_reply_text
from openguru.answers.channels.rules import Channel
from openguru.integrations.bots.asking import BUSY, bot_ask_prepare
from openguru.integrations.bots.github_app_client import (
    github_discussion_comment,
    github_issue_comment,
)
from openguru.integrations.bots.github_app_routing import Ask, github_delivery_ask
from openguru.integrations.bots.threads import BotThread, thread_remember
from openguru.integrations.models import GitHubApp, GitHubAppDelivery
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)


async def _no_progress(markdown: str) -> None:
    return None


def _suggested_docs(app: GitHubApp) -> list[tuple[str, str]]:
    guru = app.integration.guru
    found = DataSource.objects.filter(guru=guru, status=DataSource.Status.SUCCESS)
    found = found.exclude(url="").filter(url__startswith="http").order_by("pk")
    return [(source.title or source.url, source.url) for source in found[:3]]


def _reply_body(app: GitHubApp, reply: BotReply) -> str:
    guru = app.integration.guru
    site = f"{settings.SITE_URL}/g/{guru.slug}" if guru_is_public(guru) else ""
    docs = _suggested_docs(app) if reply.refused else []
    return github_reply_text(reply, guru=guru.name, site_url=site, docs=docs)


def _post(app: GitHubApp, ask: Ask, body: str) -> str:
    if ask.discussion_id:
        return github_discussion_comment(
            app=app, discussion_id=ask.discussion_id, body=body, reply_to=ask.reply_to
        )
    return github_issue_comment(app=app, repository=ask.repository, number=ask.number, body=body)


def github_delivery_answer(*, delivery_pk: int) -> None:
    delivery = (
        GitHubAppDelivery.objects.select_related(
            "integration__guru", "integration__api_key", "integration__github_app"
        )
        .filter(pk=delivery_pk)
        .first()
    )
    # Gone with its integration, or answered already (the task ran again): nothing to do.
    if delivery is None or delivery.reply_id:
        return
    integration = delivery.integration
    app = integration.github_app
    ask = github_delivery_ask(app=app, event=delivery.event, payload=delivery.payload)
    if ask is None:
        return
    if not delivery.reply_body:  # else asked before, and only its post failed
        _keep(delivery, _reply_written(app, ask))
    delivery.reply_id = _post(app, ask, delivery.reply_body)
    delivery.save(update_fields=["reply_id", "updated_at"])


def _reply_written(app: GitHubApp, ask: Ask) -> str:
    """The reply's body: the answer (its thread's binge rooted or continued), or busy."""
    thread = BotThread(app.integration, ask.repository, ask.thread_id)
    prepared = bot_ask_prepare(thread=thread, question=ask.question, channel=Channel.GITHUB)
    if prepared is None:  # the installation's key is over its rate limit
        return BUSY
    reply: BotReply = asyncio.run(
        reply_stream(prepared.events(), progress=_no_progress, interval=3600)
    )
    thread_remember(thread=thread, binge=prepared.binge, reply=reply)
    return _reply_body(app, reply)


def _keep(delivery: GitHubAppDelivery, body: str) -> None:
    delivery.reply_body = body
    delivery.save(update_fields=["reply_body", "updated_at"])
