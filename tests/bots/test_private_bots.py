"""A private guru's bots answer only at home: in the Slack workspace and the Discord server
they were set up for, never in a Discord DM or for a Slack event of no or another team,
while a public guru's bot keeps answering its DMs."""

from openguru.gurus.models import Guru, Visibility
from openguru.integrations.models import Integration

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.bots.conftest import ALLOWED, event_payload, mention, post_event
from tests.bots.discord_models import QUESTION, Gateway, client_session
from tests.fakes.discord_server import FakeDiscordServer
from tests.fakes.slack_server import FakeSlackServer


def _private(guru: Guru) -> None:
    guru.visibility = Visibility.PRIVATE
    guru.save()


def test_a_private_gurus_slack_bot_answers_its_own_workspace_only(
    slack: Integration, slack_api: FakeSlackServer
):
    _private(slack.guru)
    teamless = event_payload(mention(QUESTION, ts="7000.1", channel=ALLOWED))
    del teamless["team_id"]
    assert post_event(teamless).status_code == 200
    assert slack_api.of("chat.postMessage") == []

    post_event(event_payload(mention(QUESTION, ts="7000.2", channel=ALLOWED)))
    assert [p["thread_ts"] for p in slack_api.of("chat.postMessage")] == ["7000.2"]


def test_a_private_gurus_discord_bot_answers_no_direct_message(
    bot: Integration, discord_api: FakeDiscordServer
):
    bot.dms_enabled = True
    bot.save()
    _private(bot.guru)

    async def dm(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.dm(), QUESTION, mention=False))

    client_session(dm)
    assert discord_api.messages == []

    bot.guru.visibility = Visibility.PUBLIC
    bot.guru.save()
    client_session(dm)
    assert len(discord_api.messages) == 1
