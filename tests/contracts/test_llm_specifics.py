"""What each LLM implementation does beyond the shared contract (test_llm_contract.py): its
wire format (roles, limits, JSON modes), its key and its errors, FallbackLLM's switching and
FakeLLM's script, against the same loopback servers."""

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.llm.base import LLM, ChatMessage
from openguru.providers.llm.fake import FakeLLM
from openguru.providers.llm.fallback import FallbackLLM
from openguru.providers.llm.gemini import GeminiLLM
from openguru.providers.llm.openai_compatible import OpenAICompatibleLLM

from tests.contracts.llm_cases import (
    EXPECTED_ANSWER,
    GEMINI_KEY,
    OPENAI_KEY,
    PROMPT,
    SCHEMA,
    collect,
    gemini_llm,
    openai_llm,
    run,
)
from tests.fakes.gemini_server import FakeGeminiServer
from tests.fakes.openai_server import FakeOpenAIServer, LoopbackApp, free_port

pytestmark = pytest.mark.usefixtures("fresh_llm_servers")


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
