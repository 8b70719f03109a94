"""One contract for every LLM: what the answer engine relies on, whichever model is configured.

OpenAICompatibleLLM and GeminiLLM talk real HTTP through their SDKs to the loopback servers in
tests/fakes/ (which require the API key, so auth is checked too); FallbackLLM's primary points at
a server that is down (503 on every call) and its fallback at a healthy one. No database.
"""

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.llm.base import LLM, ChatMessage, StreamChunk
from openguru.providers.llm.fake import FakeLLM
from openguru.providers.llm.fallback import FallbackLLM
from openguru.providers.llm.gemini import GeminiLLM
from openguru.providers.llm.openai_compatible import OpenAICompatibleLLM

from tests.fakes.gemini_server import FakeGeminiServer
from tests.fakes.openai_server import FakeOpenAIServer, LoopbackApp, free_port

OPENAI_KEY = "sk-test-openai-key"
GEMINI_KEY = "test-gemini-key"

PROMPT = [
    ChatMessage(
        "system",
        "Answer only from the sources and cite them.\n"
        "[1] The sky is blue because air scatters short wavelengths. Sunsets are red.\n"
        "[2] Grass is green.",
    ),
    ChatMessage("user", "Why is the sky blue?"),
]
EXPECTED_ANSWER = "The sky is blue because air scatters short wavelengths. [1]"

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "needs_retrieval": {"type": "boolean"},
        "top_k": {"type": "integer"},
        "keywords": {"type": "array", "items": {"type": "string"}},
        "language": {"type": "string", "enum": ["en", "de"]},
        "filters": {
            "type": "object",
            "properties": {"source_type": {"type": "string"}},
            "required": ["source_type"],
            "additionalProperties": False,
        },
    },
    "required": [
        "query",
        "needs_retrieval",
        "top_k",
        "keywords",
        "language",
        "filters",
    ],
    "additionalProperties": False,
}

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


async def collect(stream: AsyncIterator[StreamChunk]) -> list[StreamChunk]:
    return [chunk async for chunk in stream]


# --- Servers and cases ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def openai_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(api_key=OPENAI_KEY) as server:
        yield server


@pytest.fixture(scope="module")
def down_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(api_key=OPENAI_KEY) as server:
        yield server


@pytest.fixture(scope="module")
def gemini_server() -> Iterator[FakeGeminiServer]:
    with FakeGeminiServer(api_key=GEMINI_KEY) as server:
        yield server


@pytest.fixture(autouse=True)
def _fresh_servers(
    openai_server: FakeOpenAIServer,
    down_server: FakeOpenAIServer,
    gemini_server: FakeGeminiServer,
) -> None:
    for server in (openai_server, down_server, gemini_server):
        server.reset()
    down_server.fail_all(503)


def openai_llm(server: FakeOpenAIServer, *, model: str = "fake-gpt", **options: Any) -> LLM:
    settings: dict[str, Any] = {"timeout": 10.0, "max_retries": 0, **options}
    return OpenAICompatibleLLM(
        api_key=OPENAI_KEY, base_url=server.base_url, model=model, **settings
    )


def gemini_llm(server: FakeGeminiServer, **options: Any) -> LLM:
    settings: dict[str, Any] = {"timeout": 10.0, "max_retries": 0, **options}
    return GeminiLLM(api_key=GEMINI_KEY, base_url=server.base_url, model="gemini-fake", **settings)


@dataclass(frozen=True)
class Case:
    llm: LLM
    # Where the answering calls land (failures are injected there); None: no wire at all.
    wire: LoopbackApp | None
    # SSE events a server sends up to and including the first token.
    events_to_first_token: int = 1


@pytest.fixture(params=["openai", "gemini", "fake", "fallback"])
def case(
    request: pytest.FixtureRequest,
    openai_server: FakeOpenAIServer,
    down_server: FakeOpenAIServer,
    gemini_server: FakeGeminiServer,
) -> Case:
    if request.param == "openai":
        return Case(openai_llm(openai_server), openai_server, events_to_first_token=2)
    if request.param == "gemini":
        return Case(gemini_llm(gemini_server), gemini_server)
    if request.param == "fake":
        return Case(FakeLLM(), None)
    fallback = FallbackLLM(
        primary=openai_llm(down_server, model="primary-model"),
        fallback=openai_llm(openai_server, model="fallback-model"),
    )
    return Case(fallback, openai_server, events_to_first_token=2)


def wire_of(case: Case) -> LoopbackApp:
    if case.wire is None:
        pytest.skip("FakeLLM has no wire to fail")
    return case.wire


# --- The contract --------------------------------------------------------------------------------


def test_it_is_an_llm_with_a_model_name(case: Case) -> None:
    assert isinstance(case.llm, LLM)
    assert case.llm.model


def test_complete_answers_from_the_whole_prompt_with_model_and_usage(
    case: Case,
) -> None:
    completion = run(case.llm.complete(PROMPT, max_tokens=200))
    # The fakes cite the first passage of the system message: the whole prompt reached them.
    assert completion.text == EXPECTED_ANSWER
    assert completion.model
    assert completion.usage.prompt_tokens > 0
    assert completion.usage.completion_tokens > 0


def test_stream_yields_the_same_answer_in_ordered_deltas_then_usage(case: Case) -> None:
    complete_text = run(case.llm.complete(PROMPT)).text
    chunks = run(collect(case.llm.stream(PROMPT)))

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


def test_stream_hands_over_each_token_as_it_arrives(case: Case) -> None:
    """The server holds the rest of the answer until the first token has reached us: a client
    that buffered the stream would never see that token (and the guard below would fail)."""
    wire = wire_of(case)
    gate = wire.hold_streams(after_events=case.events_to_first_token)

    async def first_then_rest() -> tuple[StreamChunk, list[StreamChunk]]:
        stream = case.llm.stream(PROMPT)
        first = await asyncio.wait_for(anext(stream), timeout=15)
        gate.set()
        return first, await collect(stream)

    first, rest = run(first_then_rest())
    assert first.delta
    assert first.delta + "".join(chunk.delta for chunk in rest) == EXPECTED_ANSWER


def test_a_reader_may_stop_a_stream_early(case: Case) -> None:
    async def first_chunk_only() -> StreamChunk:
        stream = case.llm.stream(PROMPT)
        first = await anext(stream)
        await stream.aclose()  # type: ignore[attr-defined]
        return first

    assert run(first_chunk_only()).delta
    assert run(case.llm.complete(PROMPT)).text == EXPECTED_ANSWER  # still usable


def test_complete_json_returns_an_object_of_the_schema(case: Case) -> None:
    result = run(case.llm.complete_json(PROMPT, schema=SCHEMA, name="query plan"))
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


def test_many_calls_run_concurrently_on_one_instance(case: Case) -> None:
    async def together() -> list[str]:
        plans = [case.llm.complete_json(PROMPT, schema=SCHEMA, name="plan") for _ in range(5)]
        streams = [collect(case.llm.stream(PROMPT)) for _ in range(20)]
        results = await asyncio.gather(*plans, *streams)
        return ["".join(c.delta for c in chunks) for chunks in results[5:]]

    assert run(together()) == [EXPECTED_ANSWER] * 20


def test_one_instance_serves_successive_event_loops(case: Case) -> None:
    # Workers may run each task under its own asyncio.run(); a cached client must survive that.
    for _ in range(3):
        assert run(case.llm.complete(PROMPT)).text == EXPECTED_ANSWER


@pytest.mark.parametrize("status", [429, 500, 503])
def test_server_overload_raises_transient_error_from_every_call(case: Case, status: int) -> None:
    wire = wire_of(case)
    calls: list[Callable[[], Coroutine[Any, Any, object]]] = [
        lambda: case.llm.complete(PROMPT),
        lambda: collect(case.llm.stream(PROMPT)),
        lambda: case.llm.complete_json(PROMPT, schema=SCHEMA, name="plan"),
    ]
    for call in calls:
        wire.fail_next(1, status=status)
        with pytest.raises(TransientError) as raised:
            run(call())
        assert raised.value.code == ErrorCode.PROVIDER_UNAVAILABLE
        assert raised.value.http_status == 503


def test_a_bad_request_is_a_provider_error_not_worth_retrying(case: Case) -> None:
    wire = wire_of(case)
    wire.fail_next(1, status=400)
    with pytest.raises(DomainError) as raised:
        run(case.llm.complete(PROMPT))
    assert not isinstance(raised.value, TransientError)
    assert raised.value.code == ErrorCode.PROVIDER_ERROR

    wire.fail_next(1, status=400)
    with pytest.raises(DomainError) as raised:
        run(collect(case.llm.stream(PROMPT)))
    assert raised.value.code == ErrorCode.PROVIDER_ERROR


def test_a_stream_cut_mid_answer_raises_transient_error(case: Case) -> None:
    wire = wire_of(case)
    wire.cut_streams_after = case.events_to_first_token + 1
    received: list[str] = []

    async def read() -> None:
        async for chunk in case.llm.stream(PROMPT):
            received.append(chunk.delta)

    with pytest.raises(TransientError):
        run(read())
    assert received and all(received)  # what arrived before the cut was handed over


# --- Provider specifics --------------------------------------------------------------------------


def _unreachable_url() -> str:
    return f"http://127.0.0.1:{free_port()}"  # nothing listens there


def test_unreachable_servers_raise_transient_error() -> None:
    llms = [
        OpenAICompatibleLLM(
            api_key="k", base_url=_unreachable_url() + "/v1", model="m", max_retries=0
        ),
        GeminiLLM(api_key="k", base_url=_unreachable_url(), model="m", max_retries=0),
    ]
    for llm in llms:
        with pytest.raises(TransientError):
            run(llm.complete(PROMPT))
        with pytest.raises(TransientError):
            run(collect(llm.stream(PROMPT)))


def test_a_wrong_api_key_is_a_provider_error(
    openai_server: FakeOpenAIServer, gemini_server: FakeGeminiServer
) -> None:
    wrong = [
        OpenAICompatibleLLM(
            api_key="sk-wrong",
            base_url=openai_server.base_url,
            model="m",
            max_retries=0,
        ),
        GeminiLLM(api_key="wrong", base_url=gemini_server.base_url, model="m", max_retries=0),
    ]
    for llm in wrong:
        with pytest.raises(DomainError) as raised:
            run(llm.complete(PROMPT))
        assert raised.value.code == ErrorCode.PROVIDER_ERROR


def test_the_api_key_never_shows_in_repr_or_errors(
    openai_server: FakeOpenAIServer, gemini_server: FakeGeminiServer
) -> None:
    llms = [openai_llm(openai_server), gemini_llm(gemini_server)]
    fallback = FallbackLLM(primary=llms[0], fallback=llms[1])
    for llm in [*llms, fallback]:
        assert OPENAI_KEY not in repr(llm) and GEMINI_KEY not in repr(llm)
    openai_server.fail_next(1, status=400)
    with pytest.raises(DomainError) as raised:
        run(llms[0].complete(PROMPT))
    assert OPENAI_KEY not in str(raised.value.as_dict())


def test_one_retry_rides_out_one_overload(
    openai_server: FakeOpenAIServer, gemini_server: FakeGeminiServer
) -> None:
    cases: list[tuple[LLM, LoopbackApp]] = [
        (openai_llm(openai_server, max_retries=1), openai_server),
        (gemini_llm(gemini_server, max_retries=1), gemini_server),
    ]
    for llm, server in cases:
        server.fail_next(1, status=503)
        assert run(llm.complete(PROMPT)).text == EXPECTED_ANSWER
        assert server.call_count == 2


def test_openai_sends_roles_model_limits_and_asks_for_stream_usage(
    openai_server: FakeOpenAIServer,
) -> None:
    llm = openai_llm(openai_server, model="my-model")
    conversation = [*PROMPT, ChatMessage("assistant", "Earlier answer."), PROMPT[1]]
    run(llm.complete(conversation, max_tokens=77, temperature=0.3))
    run(collect(llm.stream(conversation)))

    sent, streamed = openai_server.prompts()
    assert sent["model"] == "my-model"
    assert [m["role"] for m in sent["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
    ]
    assert sent["messages"][2]["content"] == "Earlier answer."
    assert sent["max_tokens"] == 77 and sent["temperature"] == 0.3
    assert streamed["stream"] is True
    assert streamed["stream_options"] == {"include_usage": True}
    assert "max_tokens" not in streamed  # no limit unless asked for


def test_openai_json_uses_a_strict_json_schema(openai_server: FakeOpenAIServer) -> None:
    run(openai_llm(openai_server).complete_json(PROMPT, schema=SCHEMA, name="query plan!"))
    response_format = openai_server.prompts()[0]["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["strict"] is True
    assert response_format["json_schema"]["schema"] == SCHEMA
    assert response_format["json_schema"]["name"] == "query_plan_"  # the API's allowed charset


def test_openai_json_falls_back_to_json_mode_where_json_schema_is_refused() -> None:
    with FakeOpenAIServer(api_key=OPENAI_KEY, reject_json_schema=True) as server:
        llm = openai_llm(server)
        first = run(llm.complete_json(PROMPT, schema=SCHEMA, name="plan"))
        second = run(llm.complete_json(PROMPT, schema=SCHEMA, name="plan"))

        formats = [body["response_format"]["type"] for body in server.prompts()]
        # Refused once, then JSON mode straight away: the refusal was remembered.
        assert formats == ["json_schema", "json_object", "json_object"]
        instruction = server.prompts()[1]["messages"][0]
        assert instruction["role"] == "system" and '"top_k"' in instruction["content"]
    for result in (first, second):
        assert set(SCHEMA["required"]) <= set(result.data)


def test_openai_json_that_breaks_the_schema_is_a_provider_error(
    openai_server: FakeOpenAIServer,
) -> None:
    llm = openai_llm(openai_server)
    for reply in [
        '{"query": "x"}',
        "[1, 2]",
        "not json",
        '{"query": 1, "top_k": "many"}',
    ]:
        openai_server.script(reply)
        with pytest.raises(DomainError) as raised:
            run(llm.complete_json(PROMPT, schema=SCHEMA, name="plan"))
        assert raised.value.code == ErrorCode.PROVIDER_ERROR


def test_json_in_a_markdown_fence_is_accepted(openai_server: FakeOpenAIServer) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "required": ["a"],
    }
    openai_server.script('```json\n{"a": 3}\n```')
    result = run(openai_llm(openai_server).complete_json(PROMPT, schema=schema, name="n"))
    assert result.data == {"a": 3}


def test_gemini_maps_roles_system_instruction_and_json_config(
    gemini_server: FakeGeminiServer,
) -> None:
    llm = gemini_llm(gemini_server)
    conversation = [*PROMPT, ChatMessage("assistant", "Earlier answer."), PROMPT[1]]
    run(llm.complete(conversation, max_tokens=55, temperature=0.2))
    run(llm.complete_json(PROMPT, schema=SCHEMA, name="plan"))

    sent, json_request = gemini_server.prompts()
    assert [c["role"] for c in sent["contents"]] == ["user", "model", "user"]
    assert sent["systemInstruction"]["parts"][0]["text"] == PROMPT[0].content
    assert sent["generationConfig"] == {"temperature": 0.2, "maxOutputTokens": 55}
    config = json_request["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == SCHEMA
    paths = [request.path for request in gemini_server.requests]
    assert paths == ["/v1/models/gemini-fake:generateContent"] * 2


# --- FallbackLLM specifics -----------------------------------------------------------------------


def test_fallback_answers_with_the_fallback_model_when_the_primary_is_down(
    openai_server: FakeOpenAIServer, down_server: FakeOpenAIServer
) -> None:
    llm = FallbackLLM(
        primary=openai_llm(down_server, model="primary-model"),
        fallback=openai_llm(openai_server, model="fallback-model"),
    )
    completion = run(llm.complete(PROMPT))
    assert completion.model == "fallback-model"
    assert llm.model == "primary-model"
    assert down_server.call_count == 1 and openai_server.call_count == 1


def test_fallback_keeps_to_the_primary_while_it_is_healthy(
    openai_server: FakeOpenAIServer, down_server: FakeOpenAIServer
) -> None:
    llm = FallbackLLM(
        primary=openai_llm(openai_server, model="primary-model"),
        fallback=openai_llm(down_server, model="fallback-model"),
    )
    assert run(llm.complete(PROMPT)).model == "primary-model"
    assert run(collect(llm.stream(PROMPT)))[-1].model == "primary-model"
    assert down_server.call_count == 0


def test_fallback_does_not_restart_a_stream_that_already_spoke(
    openai_server: FakeOpenAIServer, down_server: FakeOpenAIServer
) -> None:
    down_server.fail_all(None)
    down_server.cut_streams_after = 2  # role, one token, then the line drops
    llm = FallbackLLM(
        primary=openai_llm(down_server, model="primary-model"),
        fallback=openai_llm(openai_server, model="fallback-model"),
    )
    received: list[str] = []

    async def read() -> None:
        async for chunk in llm.stream(PROMPT):
            received.append(chunk.delta)

    with pytest.raises(TransientError):
        run(read())
    assert received == ["The "]
    assert openai_server.call_count == 0


def test_fallback_leaves_errors_that_are_not_the_providers_alone() -> None:
    not_configured = DomainError(ErrorCode.NOT_CONFIGURED, "no model")
    healthy = FakeLLM(model="fallback")
    llm = FallbackLLM(primary=FakeLLM(errors=[not_configured]), fallback=healthy)
    with pytest.raises(DomainError) as raised:
        run(llm.complete(PROMPT))
    assert raised.value is not_configured
    assert healthy.calls == []


# --- FakeLLM specifics ---------------------------------------------------------------------------


def test_fake_llm_plays_its_script_then_answers_deterministically() -> None:
    overloaded = TransientError(ErrorCode.PROVIDER_UNAVAILABLE, "busy")
    llm = FakeLLM(responses=["Scripted."], json_responses=[{"k": 1}], errors=[overloaded])
    with pytest.raises(TransientError):
        run(llm.complete(PROMPT))
    assert run(llm.complete(PROMPT)).text == "Scripted."
    assert run(llm.complete_json(PROMPT, schema=SCHEMA, name="n")).data == {"k": 1}
    assert run(llm.complete(PROMPT)).text == EXPECTED_ANSWER
    assert len(llm.calls) == 4 and llm.calls[-1] == PROMPT


def test_fake_llm_without_sources_repeats_the_question() -> None:
    question = [ChatMessage("user", "How do I install it? Tell me more.")]
    assert run(FakeLLM().complete(question)).text == "You asked: How do I install it?"
