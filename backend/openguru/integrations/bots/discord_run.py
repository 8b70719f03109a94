"""Run the Discord bots of all (or one) Discord integrations in one event loop."""

import asyncio

import discord
from django.conf import settings

from openguru.integrations.bots.discord_bot import DiscordGuruBot
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import Integration


class DiscordBotError(Exception):
    """A bot that cannot run; the message says which one and what to do."""


async def _run_one(integration: Integration, token: str) -> None:
    bot = DiscordGuruBot(integration_id=integration.pk)
    name = f"integration {integration.pk} (guild {integration.external_id})"
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure as exc:
        raise DiscordBotError(
            f"Discord rejected the bot token of {name}: {exc}. Set a new one with PATCH "
            f"/api/gurus/<slug>/integrations/{integration.pk}/ (bot_token)."
        ) from exc
    except discord.PrivilegedIntentsRequired as exc:
        raise DiscordBotError(
            f"The bot of {name} needs the Message Content intent: turn it on in the Discord "
            "developer portal (Bot → Privileged Gateway Intents)."
        ) from exc


async def discord_bots_run(integrations: list[Integration]) -> None:
    # discord.py takes its HTTP API address from here; set it before any client starts.
    discord.http.Route.BASE = settings.DISCORD_API_URL.rstrip("/")
    runs = []
    for integration in integrations:
        token = secret_decrypt(integration.access_token)
        if not token:
            raise DiscordBotError(
                f"Integration {integration.pk}'s bot token cannot be read (was "
                "INTEGRATION_ENCRYPTION_KEY or DJANGO_SECRET_KEY changed?): set it again."
            )
        runs.append(_run_one(integration, token))
    await asyncio.gather(*runs)
