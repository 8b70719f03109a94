"""The Discord bot: a discord.py client per integration (`manage.py discord_listener`). In an
allowed channel it opens a thread on the question and answers there; a thread continues a
binge; "Thinking…" is edited as the answer streams, then split into messages of 2,000
characters at most."""

import logging
from functools import partial

import discord
from django.conf import settings

from openguru.answers.channels.bots import THINKING, reply_stream
from openguru.answers.channels.discord import discord_progress_text, discord_reply_parts
from openguru.answers.channels.rules import Channel
from openguru.core.threads import run_blocking
from openguru.integrations.bots.asking import BUSY, bot_ask_prepare
from openguru.integrations.bots.replies import question_text
from openguru.integrations.bots.routing import Route, answers_outside_home, channel_mode
from openguru.integrations.bots.selectors import discord_integration_get, thread_known
from openguru.integrations.bots.threads import BotThread, thread_remember
from openguru.integrations.models import Integration

logger = logging.getLogger(__name__)

THREAD_NAME_MAX = 100  # Discord's limit
NOT_ALLOWED = (
    "I don't answer in this channel yet. To enable it, an admin of {guru} adds this channel "
    "(id `{channel}`) to the guru's Discord integration."
)

Target = discord.abc.Messageable


def discord_route(
    integration: Integration, *, channel_id: str, is_dm: bool, mentioned: bool, known_thread: bool
) -> Route:
    """`channel_id`: the channel a message is in, or its thread's channel. In a thread the bot
    answered in before, follow-ups need no mention."""
    if is_dm:
        return Route.ANSWER if integration.dms_enabled else Route.IGNORE
    mode = channel_mode(integration, channel_id)
    if mode is None:
        return Route.NOT_ALLOWED if mentioned else Route.IGNORE
    return Route.ANSWER if mode == "all" or mentioned or known_thread else Route.IGNORE


async def discord_message_handle(
    *, integration_id: int, message: discord.Message, me: discord.abc.User
) -> None:
    if message.author.bot or message.author.id == me.id:
        return  # never answer a bot, this one included
    integration = await run_blocking(
        partial(discord_integration_get, integration_id=integration_id)
    )
    if integration is None:
        return
    channel = message.channel
    is_dm = isinstance(channel, discord.DMChannel)
    if not is_dm and (message.guild is None or str(message.guild.id) != integration.external_id):
        return  # the bot may be in other servers: it answers for its guru's only
    if is_dm and not answers_outside_home(integration):
        return  # a private guru's bot: only in its own server
    in_thread = isinstance(channel, discord.Thread)
    home = str(channel.parent_id if isinstance(channel, discord.Thread) else channel.id)
    known = in_thread and await run_blocking(
        partial(thread_known, integration=integration, channel_id=home, thread_id=str(channel.id))
    )
    route = discord_route(
        integration,
        channel_id=home,
        is_dm=is_dm,
        mentioned=any(user.id == me.id for user in message.mentions),
        known_thread=known,
    )
    if route == Route.NOT_ALLOWED:
        await message.reply(NOT_ALLOWED.format(guru=integration.guru.name, channel=home))
        return
    question = question_text(message.content)
    if route != Route.ANSWER or not question:
        return
    target: Target = channel
    target_id = channel.id
    if not is_dm and not in_thread:
        created = await message.create_thread(name=question[:THREAD_NAME_MAX])
        target, target_id = created, created.id
    thread = BotThread(integration, channel_id=home, thread_id=str(target_id))
    await discord_answer(target=target, thread=thread, question=question)


async def discord_answer(*, target: Target, thread: BotThread, question: str) -> None:
    prepared = await run_blocking(
        partial(bot_ask_prepare, thread=thread, question=question, channel=Channel.DISCORD)
    )
    if prepared is None:
        await target.send(BUSY)
        return
    thinking = await target.send(THINKING)
    shown = [THINKING]

    async def progress(markdown: str) -> None:
        first = discord_progress_text(markdown)
        if first != shown[-1]:
            shown.append(first)
            await thinking.edit(content=first)

    reply = await reply_stream(
        prepared.events(), progress=progress, interval=settings.BOT_EDIT_INTERVAL_SECONDS
    )
    parts = discord_reply_parts(reply)
    await thinking.edit(content=parts[0])
    for part in parts[1:]:
        await target.send(part)
    await run_blocking(partial(thread_remember, thread=thread, binge=prepared.binge, reply=reply))


class DiscordGuruBot(discord.Client):
    """One integration's bot. Needs the Message Content intent (Discord developer portal)."""

    def __init__(self, *, integration_id: int) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(intents=intents)
        self.integration_id = integration_id

    async def on_ready(self) -> None:
        logger.info("discord: integration %s connected as %s", self.integration_id, self.user)

    async def on_message(self, message: discord.Message) -> None:
        if self.user is None:
            return
        try:
            await discord_message_handle(
                integration_id=self.integration_id, message=message, me=self.user
            )
        except Exception:  # one failed answer must not stop the bot
            logger.exception("discord: answering message %s failed", message.id)
