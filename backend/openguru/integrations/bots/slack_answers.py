"""The Slack bot's answer to one event (run by a Celery task): "Thinking…" in the thread, edited
as the answer streams, then the whole answer in mrkdwn with its sources and trust score."""

import asyncio
import logging

from django.conf import settings
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from openguru.answers.channels.bots import THINKING, BotReply, reply_stream
from openguru.answers.channels.rules import Channel
from openguru.answers.channels.slack import slack_progress_text, slack_reply_text
from openguru.integrations.bots.asking import BUSY, bot_ask_prepare
from openguru.integrations.bots.replies import question_text
from openguru.integrations.bots.routing import Route, slack_event_route
from openguru.integrations.bots.threads import BotThread, thread_remember
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import Integration, SlackEvent

logger = logging.getLogger(__name__)

ASK_SOMETHING = "Ask me a question about {guru}, and I will answer it here."
NOT_ALLOWED = (
    "I don't answer in this channel yet. To enable it, an admin of {guru} adds this channel "
    "(id `{channel}`) to the guru's Slack integration: in the guru's settings, or with "
    "PATCH /api/gurus/{slug}/integrations/{integration}/."
)


# A call Slack rate-limits (HTTP 429) is sent again after its Retry-After: the final edit
# carries the whole answer and must not be lost to a burst of edits.
RATE_LIMIT_RETRIES = 2


def slack_client(integration: Integration) -> WebClient:
    base = settings.SLACK_API_URL.rstrip("/") + "/"
    return WebClient(
        token=secret_decrypt(integration.access_token),
        base_url=base,
        timeout=30,
        retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES)],
    )


def slack_event_answer(*, slack_event_id: int) -> None:
    taken = SlackEvent.objects.select_related("integration__guru", "integration__api_key").get(
        pk=slack_event_id
    )
    integration, event = taken.integration, taken.event
    channel = str(event["channel"])
    thread_ts = str(event.get("thread_ts") or event["ts"])
    client = slack_client(integration)
    route = slack_event_route(integration=integration, event=event, bot_user_id=taken.bot_user_id)
    if route == Route.NOT_ALLOWED:
        client.chat_postEphemeral(
            channel=channel,
            user=str(event["user"]),
            thread_ts=thread_ts,
            text=NOT_ALLOWED.format(
                guru=integration.guru.name,
                channel=channel,
                slug=integration.guru.slug,
                integration=integration.pk,
            ),
        )
        return
    if route != Route.ANSWER:
        return
    question = question_text(str(event.get("text", "")))
    if not question:
        text = ASK_SOMETHING.format(guru=integration.guru.name)
        client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=text)
        return
    _answer(client, BotThread(integration, channel, thread_ts), question)


def _answer(client: WebClient, thread: BotThread, question: str) -> None:
    prepared = bot_ask_prepare(thread=thread, question=question, channel=Channel.SLACK)
    if prepared is None:
        client.chat_postMessage(channel=thread.channel_id, thread_ts=thread.thread_id, text=BUSY)
        return
    posted = client.chat_postMessage(
        channel=thread.channel_id, thread_ts=thread.thread_id, text=THINKING
    )
    ts = str(posted["ts"])

    async def progress(markdown: str) -> None:
        text = slack_progress_text(markdown)
        try:
            await asyncio.to_thread(client.chat_update, channel=thread.channel_id, ts=ts, text=text)
        except SlackApiError as exc:  # e.g. rate limited: the next edit or the final one follows
            logger.warning("slack: editing the answer failed: %s", exc)

    interval = settings.BOT_EDIT_INTERVAL_SECONDS
    reply: BotReply = asyncio.run(
        reply_stream(prepared.events(), progress=progress, interval=interval)
    )
    client.chat_update(channel=thread.channel_id, ts=ts, text=slack_reply_text(reply))
    thread_remember(thread=thread, binge=prepared.binge, reply=reply)
