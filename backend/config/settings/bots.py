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
# from there (GET /gateway/bot).
DISCORD_API_URL = env.str("DISCORD_API_URL", default="https://discord.com/api/v10")
# Slack's OAuth install ("Add to Slack"): the app's client id and secret and its signing secret,
# which then signs the events of every workspace that installs it. Empty: install by pasting a
# bot token and signing secret instead.
SLACK_CLIENT_ID = env.str("SLACK_CLIENT_ID", default="")
SLACK_CLIENT_SECRET = env.str("SLACK_CLIENT_SECRET", default="")
SLACK_SIGNING_SECRET = env.str("SLACK_SIGNING_SECRET", default="")
SLACK_AUTHORIZE_URL = env.str("SLACK_AUTHORIZE_URL", default="https://slack.com/oauth/v2/authorize")
SLACK_BOT_SCOPES = env.list(
    "SLACK_BOT_SCOPES",
    default=["app_mentions:read", "chat:write", "channels:history", "groups:history", "im:history"],
)
# Where Slack sends the admin back after the install; empty: this server's own
# /api/slack/oauth/ as the request reached it.
SLACK_REDIRECT_URI = env.str("SLACK_REDIRECT_URI", default="")
# Microsoft Teams (Bot Framework): where the signing keys of incoming activities' tokens are
# published (OpenID metadata naming its JWKS), and the token endpoint the bot's app id and
# secret are traded at ("{tenant}": the integration's tenant, else botframework.com). Stand-ins
# in tests.
TEAMS_OPENID_METADATA_URL = env.str(
    "TEAMS_OPENID_METADATA_URL",
    default="https://login.botframework.com/v1/.well-known/openidconfiguration",
)
TEAMS_TOKEN_URL = env.str(
    "TEAMS_TOKEN_URL",
    default="https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token",
)
