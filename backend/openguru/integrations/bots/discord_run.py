"""Run the Discord bots of all (or one) Discord integrations in one event loop, each on its own:
a bot that cannot run (its token rejected, say) is logged and the others go on. Gateway drops
are discord.py's to handle: it resumes the session, or identifies again when Discord has
forgotten it. SIGTERM and SIGINT close every bot."""

import asyncio
import logging
import signal

import discord
import yarl
from discord.gateway import DiscordWebSocket
from django.conf import settings

from openguru.integrations.bots.discord_bot import DiscordGuruBot
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import Integration

logger = logging.getLogger(__name__)

AUTHENTICATION_FAILED = 4004  # the gateway's close code for a token it refuses


class DiscordBotError(Exception):
    """No bot can run; the message says which ones and what to do."""


def _name(integration: Integration) -> str:
    return f"integration {integration.pk} (guild {integration.external_id})"


def _rejected(integration: Integration, reason: object) -> str:
    return (
        f"Discord rejected the bot token of {_name(integration)}: {str(reason).rstrip('.')}. "
        f"Set a new one with PATCH /api/gurus/<slug>/integrations/{integration.pk}/ (bot_token)."
    )


async def _gateway_use(bot: DiscordGuruBot) -> None:
    """Dial the gateway Discord names (`GET /gateway/bot`): discord.py would always dial its
    built-in address, and uses it again after Discord invalidates a session. Every bot talks to
    the same Discord, so they share the address."""
    try:
        _, url, _ = await bot.http.get_bot_gateway()
    except discord.GatewayNotFound:
        logger.warning(
            "discord: %s named no gateway; dialing discord.py's", settings.DISCORD_API_URL
        )
        return
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def _problem(integration: Integration, exc: Exception) -> str | None:
    """What an admin does about `exc`; None for a failure nobody expected."""
    if isinstance(exc, discord.LoginFailure):
        return _rejected(integration, exc)
    if isinstance(exc, discord.ConnectionClosed) and exc.code == AUTHENTICATION_FAILED:
        return _rejected(integration, "the gateway refused it")
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return (
            f"The bot of {_name(integration)} needs the Message Content intent: turn it on in "
            "the Discord developer portal (Bot → Privileged Gateway Intents)."
        )
    return None


async def _run_one(
    bot: DiscordGuruBot, integration: Integration, token: str, stopping: asyncio.Event
) -> str | None:
    """Run one bot until it is closed: None, or why it could not run (already logged)."""
    try:
        async with bot:
            await bot.login(token)
            await _gateway_use(bot)
            await bot.connect()
    except Exception as exc:  # one bot's failure must not stop the others
        if stopping.is_set():
            return None  # closed while it was still logging in
        problem = _problem(integration, exc)
        if problem is None:
            problem = f"The bot of {_name(integration)} stopped: {type(exc).__name__}: {exc}"
            logger.exception("discord: %s", problem)
        else:
            logger.error("discord: %s", problem)
        return problem
    return None


async def discord_bots_run(integrations: list[Integration]) -> None:
    """Returns once every bot is closed (a signal) or has failed; raises DiscordBotError, with
    every bot's reason, when none could run."""
    # discord.py takes its HTTP API address from here; set it before any client starts.
    discord.http.Route.BASE = settings.DISCORD_API_URL.rstrip("/")
    problems: list[str] = []
    runs = []
    bots: list[DiscordGuruBot] = []
    stopping = asyncio.Event()
    for integration in integrations:
        token = secret_decrypt(integration.access_token)
        if not token:
            problem = (
                f"The bot token of {_name(integration)} cannot be read (was "
                "INTEGRATION_ENCRYPTION_KEY or DJANGO_SECRET_KEY changed?): set it again."
            )
            logger.error("discord: %s", problem)
            problems.append(problem)
            continue
        bot = DiscordGuruBot(integration_id=integration.pk)
        bots.append(bot)
        runs.append(_run_one(bot, integration, token, stopping))

    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()

    def stop() -> None:
        stopping.set()
        for bot in bots:
            task = loop.create_task(bot.close())
            closing.add(task)
            task.add_done_callback(closing.discard)

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    try:
        problems += [problem for problem in await asyncio.gather(*runs) if problem]
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
    if problems and len(problems) == len(integrations):
        raise DiscordBotError("\n".join(problems))
