"""The Slack and Discord bots (openguru/integrations/)."""

from config.env import env

# Bot tokens and signing secrets are stored encrypted with a key derived from this; empty:
# derived from DJANGO_SECRET_KEY (then changing that secret makes stored tokens unreadable).
INTEGRATION_ENCRYPTION_KEY = env.str("INTEGRATION_ENCRYPTION_KEY", default="")
# The Slack Web API the bot posts to (a stand-in in tests).
SLACK_API_URL = env.str("SLACK_API_URL", default="https://slack.com/api/")
# A streamed answer edits its message at most this often: Slack and Discord rate-limit edits.
BOT_EDIT_INTERVAL_SECONDS = env.float("BOT_EDIT_INTERVAL_SECONDS", default=1.0)
# The Discord HTTP API the listener calls (a stand-in in tests); its gateway address comes
# from there.
DISCORD_API_URL = env.str("DISCORD_API_URL", default="https://discord.com/api/v10")
