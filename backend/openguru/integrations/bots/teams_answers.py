"""The Teams bot's answer to one activity (run by a Celery task), through the Agents SDK's
Connector client: "Thinking…" in the conversation or channel thread, updated as the answer
streams, then the whole answer (in more messages when it is longer than Teams takes) with its
sources as an Adaptive Card. Where Teams will not update the message, the answer is sent whole
as new messages instead."""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
from django.conf import settings
from microsoft_agents.activity import Activity, Attachment
from microsoft_agents.hosting.core.connector.client import ConnectorClient

from openguru.answers.channels.bots import THINKING, BotReply, reply_stream
from openguru.answers.channels.prepare import Prepared
from openguru.answers.channels.rules import Channel
from openguru.answers.channels.teams import (
    teams_progress_text,
    teams_reply_parts,
    teams_sources_card,
)
from openguru.integrations.bots.asking import BUSY, bot_ask_prepare
from openguru.integrations.bots.teams_auth import teams_bot_token
from openguru.integrations.bots.teams_routing import (
    TeamsRoute,
    teams_question_text,
    teams_route,
    teams_thread,
)
from openguru.integrations.bots.threads import thread_remember
from openguru.integrations.models import TeamsActivity

logger = logging.getLogger(__name__)

ASK_SOMETHING = "Ask me a question about {guru}, and I will answer it here."
NOT_ALLOWED = (
    "I don't answer in this channel yet. To enable it, an admin of {guru} adds this channel "
    "(id `{channel}`) to the guru's Teams integration in the guru's settings."
)
# A call Teams rate-limits (HTTP 429) is sent again after its Retry-After (at most this often
# and this long): the final update carries the whole answer and must not be lost.
RATE_LIMIT_RETRIES = 2
RETRY_AFTER_MAX_SECONDS = 30.0
CALL_TIMEOUT_SECONDS = 30

T = TypeVar("T")


def _retry_after(exc: aiohttp.ClientResponseError) -> float:
    """Seconds to wait: Retry-After's (a number; a date is waited as one second)."""
    found = exc.headers.get("Retry-After") if exc.headers is not None else None
    try:
        return min(max(float(found or 1), 0.0), RETRY_AFTER_MAX_SECONDS)
    except ValueError:
        return 1.0


async def _retrying(call: Callable[[], Awaitable[T]]) -> T:
    for attempt in range(RATE_LIMIT_RETRIES + 1):
        try:
            return await call()
        except aiohttp.ClientResponseError as exc:
            if exc.status != 429 or attempt == RATE_LIMIT_RETRIES:
                raise
            await asyncio.sleep(_retry_after(exc))
    raise AssertionError("unreachable")


class TeamsConversation:
    """Where the bot writes: the conversation (a channel's reply chain is one) of the activity
    it answers, through the Bot Connector at the activity's service URL."""

    def __init__(self, client: ConnectorClient, activity: dict[str, Any]) -> None:
        self.client = client
        self.conversation_id = str(activity["conversation"]["id"])
        self.reply_to_id = str(activity.get("id") or "")

    def _activity(self, text: str, card: dict[str, Any] | None) -> Activity:
        activity = Activity(
            type="message", text=text, text_format="markdown", reply_to_id=self.reply_to_id
        )
        if card is not None:
            activity.attachments = [
                Attachment(content_type=card["contentType"], content=card["content"])
            ]
        return activity

    async def post(self, text: str, card: dict[str, Any] | None = None) -> str:
        activity = self._activity(text, card)
        conversations = self.client.conversations
        sent = await _retrying(
            lambda: conversations.send_to_conversation(self.conversation_id, activity)
        )
        return str(sent.id or "")

    async def update(self, message_id: str, text: str, card: dict[str, Any] | None = None) -> None:
        activity = self._activity(text, card)
        activity.id = message_id
        conversations = self.client.conversations
        await _retrying(
            lambda: conversations.update_activity(self.conversation_id, message_id, activity)
        )

    async def finish(self, message_id: str, parts: list[str], card: dict[str, Any] | None) -> None:
        """The whole answer: its first part in place of "Thinking…", the rest as new messages,
        the card with the last."""
        rest = parts[1:]
        try:
            await self.update(message_id, parts[0], None if rest else card)
        except aiohttp.ClientResponseError as exc:
            if exc.status == 429:
                raise
            logger.warning("teams: the answer could not be updated (%s); sent whole", exc.status)
            rest = parts
        for index, text in enumerate(rest):
            await self.post(text, card if index == len(rest) - 1 else None)


def _connector(service_url: str, token: str) -> ConnectorClient:
    base = service_url.rstrip("/") + "/"
    timeout = aiohttp.ClientTimeout(total=CALL_TIMEOUT_SECONDS)
    return ConnectorClient(
        base, token, session=aiohttp.ClientSession(base_url=base, timeout=timeout)
    )


async def _say(service_url: str, token: str, activity: dict[str, Any], text: str) -> None:
    client = _connector(service_url, token)
    try:
        await TeamsConversation(client, activity).post(text)
    finally:
        await client.close()


async def _answer(
    service_url: str, token: str, activity: dict[str, Any], prepared: Prepared
) -> BotReply:
    client = _connector(service_url, token)
    try:
        conversation = TeamsConversation(client, activity)
        thinking = await conversation.post(THINKING)

        async def progress(markdown: str) -> None:
            try:
                await conversation.update(thinking, teams_progress_text(markdown))
            except aiohttp.ClientError as exc:  # the next update or the final one follows
                logger.warning("teams: updating the answer failed: %s", exc)

        interval = settings.BOT_EDIT_INTERVAL_SECONDS
        reply = await reply_stream(prepared.events(), progress=progress, interval=interval)
        await conversation.finish(thinking, teams_reply_parts(reply), teams_sources_card(reply))
        return reply
    finally:
        await client.close()


def teams_activity_answer(*, teams_activity_id: int) -> None:
    taken = TeamsActivity.objects.select_related("integration__guru", "integration__api_key").get(
        pk=teams_activity_id
    )
    integration, activity = taken.integration, taken.activity
    route = teams_route(integration=integration, activity=activity)
    if route == TeamsRoute.IGNORE:
        return
    thread = teams_thread(integration, activity)
    question = teams_question_text(activity)
    guru = integration.guru
    prepared: Prepared | None = None
    if route == TeamsRoute.NOT_ALLOWED:
        notice = NOT_ALLOWED.format(guru=guru.name, channel=thread.channel_id)
    elif not question:
        notice = ASK_SOMETHING.format(guru=guru.name)
    else:
        prepared = bot_ask_prepare(thread=thread, question=question, channel=Channel.TEAMS)
        notice = BUSY
    token = teams_bot_token(integration=integration)
    service_url = str(activity["serviceUrl"])
    if prepared is None:
        asyncio.run(_say(service_url, token, activity, notice))
        return
    reply = asyncio.run(_answer(service_url, token, activity, prepared))
    thread_remember(thread=thread, binge=prepared.binge, reply=reply)
