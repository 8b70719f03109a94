"""Run the Discord bots: they answer in the channels (and DMs) their integrations allow."""

import asyncio
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.integrations.bots.discord_run import DiscordBotError, discord_bots_run
from openguru.integrations.bots.selectors import discord_integrations_to_run


class Command(BaseCommand):
    help = "Connect the Discord bots of the gurus' Discord integrations and answer questions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--integration", type=int, help="run this integration's bot only")
        parser.add_argument(
            "--check",
            action="store_true",
            help="only say whether any Discord bot is set up (exit status 0 if one is)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        integrations = discord_integrations_to_run(integration_id=options["integration"])
        if options["check"]:
            if not integrations:
                raise CommandError("No Discord bot is set up.", returncode=1)
            self.stdout.write(f"{len(integrations)} Discord bot(s) set up.")
            return
        if not integrations:
            raise CommandError(
                "No Discord bot token is set up. Add a Discord integration with its bot token: "
                'POST /api/gurus/<slug>/integrations/ {"type": "DISCORD", "external_id": '
                '"<guild id>", "bot_token": "…"}.'
            )
        self.stdout.write(f"Starting {len(integrations)} Discord bot(s).")
        try:
            asyncio.run(discord_bots_run(integrations))
        except DiscordBotError as exc:  # raised only when no bot could run
            raise CommandError(str(exc)) from exc
        self.stdout.write("Discord bots stopped.")
