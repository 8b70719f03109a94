"""The Teams bot's messages against the Bot Connector stand-in when answers are long or the far
end pushes back: a long answer split within Teams' message size limit, a rate-limited final
update sent again after Retry-After, a message Teams will not update sent whole instead, an
LLM that is down, an activity whose task never reached the broker; and the app package."""

import io
import json
import zipfile
from collections.abc import Iterator

import pytest
from django.test import Client
from openguru.answers.channels.bots import FAILED
from openguru.answers.channels.teams import TEAMS_TEXT_LIMIT
from openguru.answers.models import Question
from openguru.integrations.models import Integration, TeamsActivity
from openguru.integrations.tasks import teams_activities_send_unsent

from tests.bots.teams_helpers import (
    APP_ID,
    QUESTION,
    activity,
    post_activity,
)
from tests.bots.test_discord_split import LongAnswerLLM
from tests.conftest import clear_provider_caches
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.teams_server import MESSAGE_LIMIT_BYTES, FakeTeamsServer

ADMIN = {"HTTP_AUTHORIZATION": "Bearer test-admin-token"}
DOCS = "https://docs.python.org/3/library/venv.html"


def _very_long_answer() -> str:
    """About 40,000 characters (past one message), links and a code block among them."""
    prose = "\n\n".join(
        f"Step {i}: create the environment with python -m venv myenv, see [the docs]({DOCS})."
        + " It keeps each project's packages apart." * 8
        for i in range(100)
    )
    code = "```python\n" + "\n".join(f"env_{i} = make_venv('myenv_{i}')" for i in range(300))
    return f"{prose}\n\n{code}\n```\n\nThat is all."


@pytest.fixture
def very_long_llm(settings) -> Iterator[LongAnswerLLM]:
    with LongAnswerLLM(_very_long_answer()) as server:
        settings.LLM_PROVIDER = "openai"
        settings.OPENAI_BASE_URL = server.base_url
        settings.OPENAI_API_KEY = "test-key"
        settings.LLM_MODEL = "fake-gpt"
        clear_provider_caches()
        yield server
    clear_provider_caches()


def test_a_long_answer_is_split_within_teams_message_limit(
    teams: Integration, teams_api: FakeTeamsServer, very_long_llm: LongAnswerLLM
):
    assert len(very_long_llm.answer) > 3 * TEAMS_TEXT_LIMIT

    post_activity(
        activity(teams_api, QUESTION, activity_id="7001"), token=teams_api.activity_token()
    )

    assert teams_api.too_large == []  # Teams took every message
    thinking, *more = teams_api.of("POST")
    updates = teams_api.of("PUT")
    assert len(updates) > 2 and {u.activity_id for u in updates} == {thinking.activity_id}
    parts = [updates[-1].body["text"]] + [message.body["text"] for message in more]
    assert len(parts) >= 4
    for call in [*updates, *more]:
        size = len(json.dumps(call.body, ensure_ascii=False).encode("utf-16-le"))
        assert size <= MESSAGE_LIMIT_BYTES and len(call.body["text"]) <= TEAMS_TEXT_LIMIT
    for part in parts:
        assert part.count("```") % 2 == 0  # a code block cut in two is closed and reopened
    assert sum(part.count(f"({DOCS})") for part in parts) == 100  # every link whole
    assert parts[0].startswith("Step 0:") and parts[-1].endswith("That is all.")
    # The card comes once, with the last message.
    assert [bool(m.body.get("attachments")) for m in more] == [False] * (len(more) - 1) + [True]
    assert "attachments" not in updates[-1].body


def test_a_rate_limited_final_update_is_sent_again_after_retry_after(
    teams: Integration, teams_api: FakeTeamsServer, settings
):
    settings.BOT_EDIT_INTERVAL_SECONDS = 600  # no streaming updates: the one update is final
    teams_api.rate_limit_next("PUT", retry_after=1)

    post_activity(
        activity(teams_api, QUESTION, activity_id="7101"), token=teams_api.activity_token()
    )

    [limited] = teams_api.limited
    [final] = teams_api.of("PUT")
    assert limited.body == final.body and final.at - limited.at >= 1.0
    assert "python -m venv myenv" in final.body["text"] and final.body["attachments"]


def test_a_message_teams_will_not_update_is_answered_whole_in_a_new_one(
    teams: Integration, teams_api: FakeTeamsServer, settings
):
    settings.BOT_EDIT_INTERVAL_SECONDS = 600
    teams_api.refuse_updates = 400

    post_activity(
        activity(teams_api, QUESTION, activity_id="7201"), token=teams_api.activity_token()
    )

    assert teams_api.of("PUT") == []
    thinking, whole = teams_api.of("POST")
    assert thinking.body["text"] == "Thinking…"
    assert "python -m venv myenv" in whole.body["text"] and whole.body["attachments"]


def test_with_the_llm_down_the_answer_says_so_without_a_card(
    teams: Integration, teams_api: FakeTeamsServer, llm_server: FakeOpenAIServer
):
    llm_server.fail_all(500)

    post_activity(
        activity(teams_api, QUESTION, activity_id="7301"), token=teams_api.activity_token()
    )

    final = teams_api.of("PUT")[-1].body
    assert final["text"] == FAILED and "attachments" not in final
    assert not Question.objects.filter(source=Question.Source.TEAMS).exists()


def test_an_activity_left_unsent_is_answered_by_the_sweep_once(
    teams: Integration, teams_api: FakeTeamsServer
):
    # What the endpoint leaves when its send to the broker fails: taken, never sent.
    body = activity(teams_api, QUESTION, activity_id="7401")
    TeamsActivity.objects.create(integration=teams, activity_id="unsent", activity=body)

    assert teams_activities_send_unsent() == 1
    assert teams_activities_send_unsent() == 0
    assert [call.body["text"] for call in teams_api.of("POST")] == ["Thinking…"]
    assert not TeamsActivity.objects.filter(sent_at__isnull=True).exists()


def test_the_app_package_holds_the_manifest_and_its_icons(teams: Integration, settings):
    settings.SITE_URL = "https://guru.example.com"
    url = f"/api/gurus/{teams.guru.slug}/integrations/{teams.pk}/teams/manifest/"

    response = Client().get(url, **ADMIN)

    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    package = zipfile.ZipFile(io.BytesIO(response.content))
    assert sorted(package.namelist()) == ["color.png", "manifest.json", "outline.png"]
    manifest = json.loads(package.read("manifest.json"))
    assert manifest["id"] == APP_ID and manifest["bots"][0]["botId"] == APP_ID
    assert manifest["icons"] == {"color": "color.png", "outline": "outline.png"}
    assert manifest["validDomains"] == ["guru.example.com"]
    assert len(manifest["name"]["short"]) <= 30 and len(manifest["description"]["short"]) <= 80
    for name, side in (("color.png", 192), ("outline.png", 32)):
        png = package.read(name)
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert int.from_bytes(png[16:20], "big") == int.from_bytes(png[20:24], "big") == side
    assert Client().get(url).status_code == 401
