"""Discord's message format, written by the Discord encoder (`answers/channels/discord.py`)."""

from openguru.answers.channels.discord import discord_link, split_message

__all__ = ["discord_link", "split_message"]
