"""One contract for every LLM: what the answer engine relies on, whichever model is configured.

OpenAICompatibleLLM and GeminiLLM talk real HTTP through their SDKs to the loopback servers in
tests/fakes/ (which require the API key, so auth is checked too); FallbackLLM's primary points at
a server that is down (503 on every call) and its fallback at a healthy one. No database.
"""

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.llm.base import LLM, StreamChunk

from tests.contracts.llm_cases import (
    EXPECTED_ANSWER,
    PROMPT,
    SCHEMA,
    Case,
    collect,
    run,
    wire_of,
)

pytestmark = pytest.mark.usefixtures("fresh_llm_servers")


# --- The contract --------------------------------------------------------------------------------


def test_it_is_an_llm_with_a_model_name(llm_case: Case) -> None:
    assert isinstance(llm_case.llm, LLM)
    assert llm_case.llm.model


def test_complete_answers_from_the_whole_prompt_with_model_and_usage(
    llm_case: Case,
) -> None:
    completion = run(llm_case.llm.complete(PROMPT, max_tokens=200))
    # The fakes cite the first passage of the system message: the whole prompt reached them.
    assert completion.text == EXPECTED_ANSWER
    assert completion.model
    assert completion.usage.prompt_tokens > 0
    assert completion.usage.completion_tokens > 0


def test_stream_yields_the_same_answer_in_ordered_deltas_then_usage(llm_case: Case) -> None:
    complete_text = run(llm_case.llm.complete(PROMPT)).text
    chunks = run(collect(llm_case.llm.stream(PROMPT)))

    *deltas, last = chunks
    assert len(deltas) > 1, "a stream must arrive in pieces"
    assert all(chunk.delta for chunk in deltas)
    assert all(chunk.usage is None for chunk in deltas)
    assert "".join(chunk.delta for chunk in deltas) == complete_text
    assert last.delta == ""
    assert last.usage is not None
    assert last.usage.prompt_tokens > 0
    assert last.usage.completion_tokens > 0
    assert last.model


def test_stream_hands_over_each_token_as_it_arrives(llm_case: Case) -> None:
    """The server holds the rest of the answer until the first token has reached us: a client
    that buffered the stream would never see that token (and the guard below would fail)."""
    wire = wire_of(llm_case)
    gate = wire.hold_streams(after_events=llm_case.events_to_first_token)

    async def first_then_rest() -> tuple[StreamChunk, list[StreamChunk]]:
        stream = llm_case.llm.stream(PROMPT)
        first = await asyncio.wait_for(anext(stream), timeout=15)
        gate.set()
        return first, await collect(stream)

    first, rest = run(first_then_rest())
    assert first.delta
    assert first.delta + "".join(chunk.delta for chunk in rest) == EXPECTED_ANSWER


def test_a_reader_may_stop_a_stream_early(llm_case: Case) -> None:
    async def first_chunk_only() -> StreamChunk:
        stream = llm_case.llm.stream(PROMPT)
        first = await anext(stream)
        await stream.aclose()  # type: ignore[attr-defined]
        return first

    assert run(first_chunk_only()).delta
    assert run(llm_case.llm.complete(PROMPT)).text == EXPECTED_ANSWER  # still usable


def test_complete_json_returns_an_object_of_the_schema(llm_case: Case) -> None:
    result = run(llm_case.llm.complete_json(PROMPT, schema=SCHEMA, name="query plan"))
    data = result.data
    assert set(SCHEMA["required"]) <= set(data)
    assert isinstance(data["query"], str) and data["query"]
    assert isinstance(data["needs_retrieval"], bool)
    assert isinstance(data["top_k"], int) and not isinstance(data["top_k"], bool)
    assert isinstance(data["keywords"], list)
    assert all(isinstance(keyword, str) for keyword in data["keywords"])
    assert data["language"] in ("en", "de")
    assert isinstance(data["filters"], dict) and isinstance(data["filters"]["source_type"], str)
    assert result.model


def test_many_calls_run_concurrently_on_one_instance(llm_case: Case) -> None:
    async def together() -> list[str]:
        plans = [llm_case.llm.complete_json(PROMPT, schema=SCHEMA, name="plan") for _ in range(5)]
        streams = [collect(llm_case.llm.stream(PROMPT)) for _ in range(20)]
        results = await asyncio.gather(*plans, *streams)
        return ["".join(c.delta for c in chunks) for chunks in results[5:]]

    assert run(together()) == [EXPECTED_ANSWER] * 20


def test_one_instance_serves_successive_event_loops(llm_case: Case) -> None:
    # Workers may run each task under its own asyncio.run(); a cached client must survive that.
    for _ in range(3):
        assert run(llm_case.llm.complete(PROMPT)).text == EXPECTED_ANSWER


@pytest.mark.parametrize("status", [429, 500, 503])
def test_server_overload_raises_transient_error_from_every_call(
    llm_case: Case, status: int
) -> None:
    wire = wire_of(llm_case)
    calls: list[Callable[[], Coroutine[Any, Any, object]]] = [
        lambda: llm_case.llm.complete(PROMPT),
        lambda: collect(llm_case.llm.stream(PROMPT)),
        lambda: llm_case.llm.complete_json(PROMPT, schema=SCHEMA, name="plan"),
    ]
    for call in calls:
        wire.fail_next(1, status=status)
        with pytest.raises(TransientError) as raised:
            run(call())
        assert raised.value.code == ErrorCode.PROVIDER_UNAVAILABLE
        assert raised.value.http_status == 503


def test_a_bad_request_is_a_provider_error_not_worth_retrying(llm_case: Case) -> None:
    wire = wire_of(llm_case)
    wire.fail_next(1, status=400)
    with pytest.raises(DomainError) as raised:
        run(llm_case.llm.complete(PROMPT))
    assert not isinstance(raised.value, TransientError)
    assert raised.value.code == ErrorCode.PROVIDER_ERROR

    wire.fail_next(1, status=400)
    with pytest.raises(DomainError) as raised:
        run(collect(llm_case.llm.stream(PROMPT)))
    assert raised.value.code == ErrorCode.PROVIDER_ERROR


def test_a_stream_cut_mid_answer_raises_transient_error(llm_case: Case) -> None:
    wire = wire_of(llm_case)
    wire.cut_streams_after = llm_case.events_to_first_token + 1
    received: list[str] = []

    async def read() -> None:
        async for chunk in llm_case.llm.stream(PROMPT):
            received.append(chunk.delta)

    with pytest.raises(TransientError):
        run(read())
    assert received and all(received)  # what arrived before the cut was handed over
