"""The bench's fake LLM keeps to the issue's "fixed 300 ms per call" when asked (`fixed_call`),
and otherwise paces its answers per token like a model. The per-token time here is far above
what each check allows, so the checks read which waits happen, not how fast anything is."""

import asyncio
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from openguru.answers.engine.prompts import RELEVANCE_SCHEMA
from openguru.providers.llm.base import ChatMessage
from openguru.providers.llm.openai_compatible import OpenAICompatibleLLM

from tests.fakes.openai_server import FakeOpenAIServer

T = TypeVar("T")
SLOW_TOKEN_MS = 20_000.0  # a per-token wait no check below could sit through
ALLOWED_S = 10.0
PROMPT = [ChatMessage(role="user", content="What does the with statement do?")]
SCHEMA = RELEVANCE_SCHEMA  # the structured-output call the bench times on the critical path


def _llm(server: FakeOpenAIServer) -> OpenAICompatibleLLM:
    return OpenAICompatibleLLM(
        api_key="x", base_url=server.base_url, model="fake-gpt", timeout=60, max_retries=0
    )


async def _first_token(llm: OpenAICompatibleLLM) -> str:
    async for chunk in llm.stream(PROMPT):
        if chunk.delta:
            return chunk.delta
    raise AssertionError("the stream ended without a token")


def _within(seconds: float, coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coroutine, seconds))


@pytest.fixture
def fixed_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(fixed_call=True, token_ms=SLOW_TOKEN_MS) as server:
        yield server


@pytest.fixture
def paced_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(token_ms=SLOW_TOKEN_MS) as server:
        yield server


def test_a_fixed_call_sends_its_first_token_with_its_first_byte(
    fixed_server: FakeOpenAIServer,
) -> None:
    assert _within(ALLOWED_S, _first_token(_llm(fixed_server)))


def test_a_fixed_call_answers_structured_output_whole_without_per_token_time(
    fixed_server: FakeOpenAIServer,
) -> None:
    result = _within(ALLOWED_S, _llm(fixed_server).complete_json(PROMPT, schema=SCHEMA, name="x"))
    assert result.data["scores"]


def test_a_paced_fake_spends_token_time_before_the_first_token_and_on_json(
    paced_server: FakeOpenAIServer,
) -> None:
    llm = _llm(paced_server)
    with pytest.raises(TimeoutError):
        _within(1.0, _first_token(llm))
    with pytest.raises(TimeoutError):
        _within(1.0, llm.complete_json(PROMPT, schema=SCHEMA, name="x"))
