"""discord.py's own model objects, as the gateway would hand them to the bot, on a client logged
in to the loopback stand-in of the Discord HTTP API; the ids the Discord tests use."""

import asyncio
from typing import Any

import discord
from openguru.integrations.bots.discord_bot import discord_message_handle
from openguru.integrations.models import Integration

from tests.fakes.discord_server import BOT_ID

TOKEN = "discord-bot-token"
GUILD = "111000000000000001"
HELP = "222000000000000001"  # allowed: answers when mentioned
GENERAL = "222000000000000002"  # not allowed
ALICE = "444000000000000001"
QUESTION = "How do I create a virtual environment?"


def discord_user(user_id: str, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": user_id, "username": name, "discriminator": "0", "avatar": None, "bot": bot}


class Gateway:
    """What the gateway would hand the bot: discord.py model objects on a logged-in client."""

    def __init__(self) -> None:
        self.client = discord.Client(intents=discord.Intents.default())
        self.state = self.client._connection
        self.guild = discord.Guild(data={"id": GUILD, "name": "Acme"}, state=self.state)
        self._ids = iter(range(1, 1000))

    async def login(self) -> None:
        data = await self.client.http.static_login(TOKEN)
        self.state.user = discord.ClientUser(state=self.state, data=data)

    def channel(self, channel_id: str) -> discord.TextChannel:
        data = {"id": channel_id, "type": 0, "name": "c", "position": 0, "guild_id": GUILD}
        return discord.TextChannel(state=self.state, guild=self.guild, data=data)  # type: ignore[arg-type]

    def forum(self, channel_id: str) -> discord.ForumChannel:
        """A forum channel (type 15), known to the guild as the gateway makes it known."""
        data = {"id": channel_id, "type": 15, "name": "ask", "position": 0, "guild_id": GUILD}
        forum = discord.ForumChannel(state=self.state, guild=self.guild, data=data)  # type: ignore[arg-type]
        self.guild._add_channel(forum)
        return forum

    def thread(self, thread_id: str, parent_id: str) -> discord.Thread:
        data = {
            "id": thread_id,
            "type": 11,
            "guild_id": GUILD,
            "parent_id": parent_id,
            "owner_id": BOT_ID,
            "name": "q",
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2025-01-01T12:00:00+00:00",
                "locked": False,
            },
            "message_count": 1,
            "member_count": 2,
            "rate_limit_per_user": 0,
        }
        return discord.Thread(guild=self.guild, state=self.state, data=data)  # type: ignore[arg-type]

    def dm(self) -> discord.DMChannel:
        data = {"id": "666000000000000001", "type": 1, "recipients": [discord_user(ALICE, "alice")]}
        return discord.DMChannel(me=self.state.user, state=self.state, data=data)  # type: ignore[arg-type]

    def message(
        self,
        channel: Any,
        text: str,
        *,
        mention: bool = True,
        author: dict | None = None,
        message_id: str = "",
    ) -> discord.Message:
        data = {
            "id": message_id or str(500_000_000_000_000_000 + next(self._ids)),
            "channel_id": str(channel.id),
            "author": author or discord_user(ALICE, "alice"),
            "content": f"<@{BOT_ID}> {text}" if mention else text,
            "timestamp": "2025-01-01T12:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [discord_user(BOT_ID, "guru", bot=True)] if mention else [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
        }
        return discord.Message(state=self.state, channel=channel, data=data)  # type: ignore[arg-type]

    async def deliver(self, integration: Integration, message: discord.Message) -> None:
        assert self.state.user is not None
        await discord_message_handle(
            integration_id=integration.pk, message=message, me=self.state.user
        )

    async def close(self) -> None:
        await self.client.http.close()


def client_session(*steps: Any) -> None:
    """Run `steps(gateway)` (coroutine functions) on one logged-in client."""

    async def run() -> None:
        gateway = Gateway()
        await gateway.login()
        try:
            for step in steps:
                await step(gateway)
        finally:
            await gateway.close()

    asyncio.run(run())
