"""Answers longer than Discord's 2,000 characters: the splitter, and a long streamed answer
through the bot's handler (discord.py model objects, the Discord HTTP API stand-in, the
loopback LLM)."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from openguru.answers.channels.discord import split_message
from openguru.integrations.models import Integration

from tests.bots.discord_models import HELP, QUESTION, Gateway, client_session
from tests.conftest import clear_provider_caches
from tests.fakes.discord_server import FakeDiscordServer
from tests.fakes.openai_server import FakeOpenAIServer

_LINK = re.compile(r"\[[^\]\n]*\]\(<?https?://[^)\s]*>?\)")
DOCS = "https://docs.python.org/3/library/venv.html"
PIP = "https://pip.pypa.io/en/stable/user_guide/"


def _long_answer() -> str:
    """About 5,000 characters: prose with links, a code block longer than a message can hold
    after it, more prose with links and bare URLs."""
    prose = " ".join(
        f"Step {i}: create the environment with python -m venv myenv, see [the venv docs]({DOCS})."
        for i in range(14)
    )
    code = "```python\n" + "\n".join(f"env_{i} = make_venv('myenv_{i}')" for i in range(45))
    tail = " ".join(
        f"Then install packages with pip, as {PIP} explains (note {i})." for i in range(20)
    )
    return f"{prose}\n\n{code}\n```\n\n{tail}"


class LongAnswerLLM(FakeOpenAIServer):
    """The loopback LLM, whose streamed answers are `answer`. Its other calls (the relevance
    scores, the question's understanding, which runs alongside) are answered as usual: a
    scripted reply would go to whichever call came first."""

    def __init__(self, answer: str) -> None:
        super().__init__(models=("fake-gpt",))
        self.answer = answer

    def _chat_text(self, body: dict[str, Any], messages: list[dict[str, Any]]) -> str:
        return self.answer if body.get("stream") else super()._chat_text(body, messages)


@pytest.fixture
def long_answer_llm(settings) -> Iterator[LongAnswerLLM]:
    with LongAnswerLLM(_long_answer()) as server:
        settings.LLM_PROVIDER = "openai"
        settings.OPENAI_BASE_URL = server.base_url
        settings.OPENAI_API_KEY = "test-key"
        settings.LLM_MODEL = "fake-gpt"
        clear_provider_caches()
        yield server
    clear_provider_caches()


def test_a_long_answer_streams_into_the_first_message_and_continues_in_more(
    bot: Integration, discord_api: FakeDiscordServer, long_answer_llm: LongAnswerLLM
):
    assert 4500 < len(long_answer_llm.answer) < 5500

    async def ask(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.channel(HELP), QUESTION))

    client_session(ask)

    [thread] = discord_api.threads
    thinking, *more = discord_api.in_channel(thread["id"])
    assert thinking.edits[0] == "Thinking…" and len(thinking.edits) > 2  # it streamed
    assert all(len(edit) <= 2000 for edit in thinking.edits)
    assert more and all(len(message.edits) == 1 for message in more)  # sent whole, never edited
    parts = [thinking.content] + [message.content for message in more]
    assert parts[0].startswith("Step 0: create the environment")
    for part in parts:
        assert len(part) <= 2000
        assert part.count("```") % 2 == 0  # a code block cut in two is closed and reopened
        assert part.count("](") == len(_LINK.findall(part))  # every link whole
        assert all(url == PIP for url in re.findall(r"https://pip\S*(?=\s)", part))
    assert sum(part.count(f"({DOCS})") for part in parts) == 14
    assert sum(part.count(PIP) for part in parts) == 20
    code_parts = [part for part in parts if "env_" in part]
    assert len(code_parts) >= 2 and all("```python" in part for part in code_parts)
    assert "**Sources:**" in parts[-1] and "**Trust score:**" in parts[-1]
    assert not any("**Sources:**" in p or "**Trust score:**" in p for p in parts[:-1])


def test_short_messages_are_not_split():
    assert split_message("Use venv.") == ["Use venv."]


def test_long_answers_split_without_breaking_code_blocks_or_links():
    link = "[the venv docs](<https://docs.python.org/3/library/venv.html>)"
    prose = " ".join(["Virtual environments isolate packages.", link] * 60)
    code = "```python\n" + "\n".join(f"value_{i} = {i} * {i}" for i in range(200)) + "\n```"
    text = f"{prose}\n\n{code}\n\nDone, see {link}."

    parts = split_message(text)

    assert len(parts) >= 3
    assert all(len(part) <= 2000 for part in parts)
    for part in parts:
        assert part.count("```") % 2 == 0  # every part's code blocks are closed
        assert part.count("[the venv docs](") == part.count("venv.html>)")  # links whole
    code_parts = [p for p in parts if "value_" in p]
    assert len(code_parts) >= 2 and all(
        p.lstrip().startswith("```python") or "```python" in p for p in code_parts
    )
    rejoined = (
        "".join(parts)
        .replace("```python", "")
        .replace("```", "")
        .replace("\n", "")
        .replace(" ", "")
    )
    original = text.replace("```python", "").replace("```", "").replace("\n", "").replace(" ", "")
    assert rejoined == original  # nothing lost or added but the fences


def test_a_line_longer_than_the_limit_is_cut_between_words():
    parts = split_message("word " * 1000, limit=200)
    assert all(len(p) <= 200 for p in parts)
    assert all(p == p.strip() and not p.endswith("wor") for p in parts)
    assert " ".join(parts).split() == ["word"] * 1000
