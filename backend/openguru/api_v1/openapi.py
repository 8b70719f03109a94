"""What the OpenAPI document says of the public API v1's async views, from which their
stand-ins are generated: the answer (JSON or Gurubase's markdown stream), and the OpenAI-compatible
chat completions (its request, completion, stream of chunks and error envelope)."""

from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from openguru.answers.channels.chat import error_body
from openguru.answers.channels.gurubase_docs import ANSWER_EXAMPLE, MARKDOWN_STREAM
from openguru.api_v1.answer import AnswerInput
from openguru.api_v1.apis import AnswerOutput
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import ErrorSerializer, EventStream, errors
from openguru.core.openapi_stand_ins import Operation, examples, response
from openguru.integrations.apikeys.auth import APIKeyAuthentication, HasAPIKey

# --- POST /api/v1/<guru_slug>/answer/ ------------------------------------------------------

_QUESTION = "How do I create a virtual environment?"
_MARKDOWN = (
    f"# {_QUESTION}\n\n"
    "Create one with `python -m venv myenv` [1], then activate it with "
    "`source myenv/bin/activate`."
)


_MORE_ERRORS = {
    400: [
        (ErrorCode.NO_ANSWER, "I don't know. The sources this Guru has read don't cover…"),
        (ErrorCode.MALFORMED_JSON, "The request body is not valid JSON."),
    ],
    404: [
        (ErrorCode.QUESTION_NOT_FOUND, "This question has not been answered yet."),
        (ErrorCode.NOT_FOUND, "No such session."),
    ],
}

_ANSWER_JSON = response(
    AnswerOutput, "The answer (without `stream`, or with `fetch_existing`).", answer=ANSWER_EXAMPLE
)

V1_ANSWER = Operation(
    operation_id="v1_answer",
    tag="v1 answers",
    summary="Ask the guru",
    description="""
    Ask the guru. The answer is JSON, or with `stream: true` its markdown as it is written.
    A question the sources don't cover is a `400 no_answer` (before any byte of a stream).
    Each answer belongs to a session: send its `session_id` to ask a follow-up. After a stream,
    `fetch_existing: true` with the same question returns the saved answer and its session.""",
    request=AnswerInput,
    responses={
        (200, "application/json"): _ANSWER_JSON,
        (200, "text/event-stream"): response(
            MARKDOWN_STREAM, "With `stream: true`.", markdown=_MARKDOWN
        ),
        **errors(400, 401, 404, 429, 502, 503, more=_MORE_ERRORS),
    },
    examples=examples(
        {
            "question": {"question": _QUESTION},
            "stream": {"question": _QUESTION, "stream": True},
            "fetch the streamed answer": {"question": _QUESTION, "fetch_existing": True},
            "follow-up": {
                "question": "And how do I activate it?",
                "session_id": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40",
            },
        }
    ),
    authentication=[APIKeyAuthentication],
    permissions=[HasAPIKey],
)


# --- POST /api/v1/<guru_slug>/chat/completions ----------------------------------------------

CHAT_ROLES = ["system", "developer", "user", "assistant", "tool"]


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string"},
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"type": {"type": "string"}, "text": {"type": "string"}},
                },
                "description": "Content parts; only `text` parts are read.",
            },
            {"type": "null"},
        ]
    }
)
class _ContentField(serializers.JSONField):
    pass


@extend_schema_field({"type": "null", "description": "Always null."})
class AlwaysNullField(serializers.JSONField):
    pass


class ChatMessageSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=CHAT_ROLES)
    content = _ContentField()


class ChatRequestSerializer(serializers.Serializer):
    model = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="Echoed back."
    )
    messages = serializers.ListField(child=ChatMessageSerializer(), min_length=1, max_length=1000)
    stream = serializers.BooleanField(required=False, default=False)


class ChatUsageSerializer(serializers.Serializer):
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    total_tokens = serializers.IntegerField()


class ChatAssistantMessageSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=["assistant"])
    content = serializers.CharField()


class ChatChoiceSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    message = ChatAssistantMessageSerializer()
    finish_reason = serializers.ChoiceField(choices=["stop"])
    logprobs = AlwaysNullField()


class ChatCompletionSerializer(serializers.Serializer):
    id = serializers.CharField()
    object = serializers.ChoiceField(choices=["chat.completion"])
    created = serializers.IntegerField(help_text="Unix time.")
    model = serializers.CharField()
    choices = ChatChoiceSerializer(many=True)
    usage = ChatUsageSerializer(help_text="Zeros: token counts are not passed on.")


class ChatDeltaSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=["assistant"], required=False)
    content = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)


class ChatChunkChoiceSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    delta = ChatDeltaSerializer()
    finish_reason = serializers.ChoiceField(choices=["stop"], allow_null=True)
    logprobs = AlwaysNullField()


class ChatCompletionChunkSerializer(serializers.Serializer):
    id = serializers.CharField()
    object = serializers.ChoiceField(choices=["chat.completion.chunk"])
    created = serializers.IntegerField()
    model = serializers.CharField()
    choices = ChatChunkChoiceSerializer(many=True)


class OpenAIErrorSerializer(serializers.Serializer):
    message = serializers.CharField()
    type = serializers.CharField(help_text="authentication_error, not_found_error, …")
    param = serializers.CharField(allow_null=True)
    code = serializers.CharField(help_text="The same as the top-level `code`.")


class ChatErrorSerializer(ErrorSerializer):
    """OpenAI's error envelope and ours at once."""

    error = OpenAIErrorSerializer()


class ChatChunksSerializer(EventStream):
    """`chat.completion.chunk` events (the role, content deltas, one with `finish_reason`),
    then `[DONE]`; an error once the stream has started is an `error` object instead."""

    events = (
        ("message", ChatCompletionChunkSerializer),
        ("message", ChatErrorSerializer),
        ("message", "[DONE]"),
    )


def _chat_errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """Our error responses, in the envelope the chat endpoint sends (`chat.error_body`)."""
    responses = {}
    for status, ours in errors(*statuses).items():
        bodies = {
            e.name: error_body(DomainError(ErrorCode(e.value["code"]), e.value["msg"]))
            for e in ours.examples
        }
        responses[status] = OpenApiResponse(
            ChatErrorSerializer, ours.description, examples(bodies, response_only=True)
        )
    return responses


def _user(content: str) -> dict[str, str]:
    return {"role": "user", "content": content}


_COMPLETION = {
    "id": "chatcmpl-5f0c1d2e3f405f0c1d2e3f405f0c1d2e",
    "object": "chat.completion",
    "created": 1735732800,
    "model": "python",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "Create one with `python -m venv myenv` [1].\n\nSources:\n"
                "- [Virtual environments](https://docs.python.org/3/library/venv.html)",
            },
            "finish_reason": "stop",
            "logprobs": None,
        }
    ],
    "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
}
_CHUNK = '{"id": "chatcmpl-5f0c…", "object": "chat.completion.chunk", "created": 1735732800, '
_CHUNKS = (
    f'data: {_CHUNK}"model": "python", "choices": [{{"index": 0, "delta": {{"role": '
    '"assistant", "content": ""}, "finish_reason": null, "logprobs": null}]}\n\n'
    f'data: {_CHUNK}"model": "python", "choices": [{{"index": 0, "delta": {{"content": '
    '"Create one with "}, "finish_reason": null, "logprobs": null}]}\n\n'
    f'data: {_CHUNK}"model": "python", "choices": [{{"index": 0, "delta": {{}}, '
    '"finish_reason": "stop", "logprobs": null}]}\n\n'
    "data: [DONE]\n\n"
)


CHAT_COMPLETIONS = Operation(
    operation_id="v1_chat_completions",
    tag="v1 answers",
    summary="Ask the guru as an OpenAI chat model",
    description="""
    OpenAI's chat completions protocol, so any OpenAI client can ask the guru: set its base
    URL to `/api/v1/<guru_slug>` and its API key to yours. The last user message is the
    question, the turns before it the conversation. A question the sources don't cover gets an
    ordinary assistant message saying so. Other OpenAI parameters (temperature, tools, …) are
    ignored: the guru's own settings decide.""",
    request=ChatRequestSerializer,
    responses={
        (200, "application/json"): response(
            ChatCompletionSerializer,
            "The answer, then its sources numbered as it cites them ([1], [2]).",
            completion=_COMPLETION,
        ),
        (200, "text/event-stream"): response(
            ChatChunksSerializer, "With `stream: true`.", chunks=_CHUNKS
        ),
        **_chat_errors(400, 401, 404, 429, 502, 503),
    },
    examples=examples(
        {
            "question": {"model": "python", "messages": [_user(_QUESTION)]},
            "follow-up, streamed": {
                "messages": [
                    _user(_QUESTION),
                    {"role": "assistant", "content": "Create one with `python -m venv`…"},
                    _user("And how do I activate it?"),
                ],
                "stream": True,
            },
        }
    ),
    authentication=[APIKeyAuthentication],
    permissions=[HasAPIKey],
    # Security requirement objects, as drf-spectacular emits them (its hint says str).
    auth=[{"ApiKey": []}, {"ApiKeyBearer": []}],
)
