"""OpenAPI documentation of the public API v1's plain async Django views (`answer.answer`,
`chat.chat_completions`) through stand-ins for the schema's URLconf, and of the crawl and
GitHub webhook views, whose modules carry no schema decorators of their own."""

from typing import Any

from drf_spectacular.extensions import OpenApiViewExtension
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers

from openguru.api_v1.answer import AnswerInput
from openguru.api_v1.apis import ANSWER_EXAMPLE, V1_ERRORS, AnswerOutput, IdsOutput
from openguru.core.errors import ErrorCode
from openguru.core.openapi import ErrorSerializer, EventStream, SchemaOnlyApi, errors
from openguru.integrations.auth import APIKeyAuthentication, HasAPIKey

# --- POST /api/v1/<guru_slug>/answer/ ------------------------------------------------------

_MARKDOWN = (
    "# How do I create a virtual environment?\n\n"
    "Create one with `python -m venv myenv` [1], then activate it with "
    "`source myenv/bin/activate`."
)
_ANSWER_ERRORS = errors(
    400,
    401,
    404,
    429,
    502,
    503,
    more={
        400: [
            (ErrorCode.NO_ANSWER, "I don't know. The sources this Guru has read don't cover…"),
            (ErrorCode.MALFORMED_JSON, "The request body is not valid JSON."),
        ],
        404: [
            (ErrorCode.QUESTION_NOT_FOUND, "This question has not been answered yet."),
            (ErrorCode.NOT_FOUND, "No such session."),
        ],
    },
)


@extend_schema_view(
    post=extend_schema(
        operation_id="v1_answer",
        tags=["v1 answers"],
        summary="Ask the guru",
        request=AnswerInput,
        responses={
            (200, "application/json"): OpenApiResponse(
                AnswerOutput,
                description="The answer (without `stream`, or with `fetch_existing`).",
                examples=[OpenApiExample("answer", value=ANSWER_EXAMPLE)],
            ),
            (200, "text/event-stream"): OpenApiResponse(
                {
                    "description": "Not Server-Sent Events despite the media type (Gurubase's):"
                    " the raw markdown answer as it is written, its first line `# <question>`."
                },
                description="With `stream: true`.",
                examples=[OpenApiExample("markdown", value=_MARKDOWN)],
            ),
            **_ANSWER_ERRORS,
        },
        examples=[
            OpenApiExample(
                "question", value={"question": "How do I create a virtual environment?"}
            ),
            OpenApiExample(
                "stream",
                value={"question": "How do I create a virtual environment?", "stream": True},
            ),
            OpenApiExample(
                "fetch the streamed answer",
                value={
                    "question": "How do I create a virtual environment?",
                    "fetch_existing": True,
                },
            ),
            OpenApiExample(
                "follow-up",
                value={
                    "question": "And how do I activate it?",
                    "session_id": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40",
                },
            ),
        ],
    )
)
class V1AnswerDoc(SchemaOnlyApi):
    """Ask the guru. The answer is JSON, or with `stream: true` its markdown as it is written.
    A question the sources don't cover is a `400 no_answer` (before any byte of a stream).
    Each answer belongs to a session: send its `session_id` to ask a follow-up. After a stream,
    `fetch_existing: true` with the same question returns the saved answer and its session."""

    authentication_classes = [APIKeyAuthentication]
    permission_classes = [HasAPIKey]


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


_OPENAI_TYPES = {401: "authentication_error", 404: "not_found_error", 429: "rate_limit_error"}


def _chat_errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """Our error responses, in the envelope the chat endpoint sends."""
    responses = {}
    for status, response in errors(*statuses).items():
        kind = _OPENAI_TYPES.get(
            status, "server_error" if status >= 500 else "invalid_request_error"
        )
        examples = []
        for example in response.examples:
            ours: dict[str, Any] = example.value
            openai = {"message": ours["msg"], "type": kind, "param": None, "code": ours["code"]}
            examples.append(
                OpenApiExample(example.name, value={"error": openai, **ours}, response_only=True)
            )
        responses[status] = OpenApiResponse(
            ChatErrorSerializer, description=response.description, examples=examples
        )
    return responses


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


@extend_schema_view(
    post=extend_schema(
        operation_id="v1_chat_completions",
        tags=["v1 answers"],
        summary="Ask the guru as an OpenAI chat model",
        request=ChatRequestSerializer,
        # Security requirement objects, as drf-spectacular emits them (its hint says str).
        auth=[{"ApiKey": []}, {"ApiKeyBearer": []}],  # type: ignore[list-item]
        responses={
            (200, "application/json"): OpenApiResponse(
                ChatCompletionSerializer,
                description="The answer, then the sources its text does not link already.",
                examples=[OpenApiExample("completion", value=_COMPLETION)],
            ),
            (200, "text/event-stream"): OpenApiResponse(
                ChatChunksSerializer,
                description="With `stream: true`.",
                examples=[OpenApiExample("chunks", value=_CHUNKS)],
            ),
            **_chat_errors(400, 401, 404, 429, 502, 503),
        },
        examples=[
            OpenApiExample(
                "question",
                value={
                    "model": "python",
                    "messages": [
                        {"role": "user", "content": "How do I create a virtual environment?"}
                    ],
                },
            ),
            OpenApiExample(
                "follow-up, streamed",
                value={
                    "messages": [
                        {"role": "user", "content": "How do I create a virtual environment?"},
                        {"role": "assistant", "content": "Create one with `python -m venv`…"},
                        {"role": "user", "content": "And how do I activate it?"},
                    ],
                    "stream": True,
                },
            ),
        ],
    )
)
class ChatCompletionsDoc(SchemaOnlyApi):
    """OpenAI's chat completions protocol, so any OpenAI client can ask the guru: set its base
    URL to `/api/v1/<guru_slug>` and its API key to yours. The last user message is the
    question, the turns before it the conversation. A question the sources don't cover gets an
    ordinary assistant message saying so. Other OpenAI parameters (temperature, tools, …) are
    ignored: the guru's own settings decide."""

    authentication_classes = [APIKeyAuthentication]
    permission_classes = [HasAPIKey]


# --- crawl and GitHub webhook ---------------------------------------------------------------

_CRAWL_EXAMPLE = OpenApiExample(
    "crawl",
    value={
        "id": 3,
        "url": "https://docs.python.org/3/tutorial/",
        "status": "COMPLETED",
        "discovered_urls": [
            "https://docs.python.org/3/tutorial/",
            "https://docs.python.org/3/tutorial/venv.html",
        ],
        "start_time": "2025-01-01T12:00:00Z",
        "end_time": "2025-01-01T12:00:09Z",
        "link_limit": 200,
        "error": "",
    },
    response_only=True,
)


class CrawlStartSchema(OpenApiViewExtension):
    target_class = "openguru.api_v1.crawl_apis.CrawlStartApi"

    def view_replacement(self) -> type:
        from openguru.api_v1.crawl_apis import CrawlOutput, CrawlStartApi

        @extend_schema_view(
            post=extend_schema(
                operation_id="v1_crawl_start",
                tags=["v1 data sources"],
                summary="Discover a site's pages (nothing is indexed)",
                description="Lists the pages reachable from `url`; add the ones you want as "
                "website sources. Needs a staff user's key.",
                request=CrawlStartApi.InputSerializer,
                responses={200: CrawlOutput, **errors(400, 401, 403, 404, 429)},
                examples=[
                    OpenApiExample(
                        "start",
                        value={"url": "https://docs.python.org/3/tutorial/", "link_limit": 200},
                        request_only=True,
                    ),
                    _CRAWL_EXAMPLE,
                ],
            )
        )
        class Documented(CrawlStartApi):
            pass

        return Documented


class CrawlStatusSchema(OpenApiViewExtension):
    target_class = "openguru.api_v1.crawl_apis.CrawlStatusApi"

    def view_replacement(self) -> type:
        from openguru.api_v1.crawl_apis import CrawlOutput, CrawlStatusApi

        @extend_schema_view(
            get=extend_schema(
                operation_id="v1_crawl_status",
                tags=["v1 data sources"],
                summary="A crawl and the pages it found so far",
                responses={200: CrawlOutput, **V1_ERRORS},
                examples=[_CRAWL_EXAMPLE],
            )
        )
        class Documented(CrawlStatusApi):
            pass

        return Documented


class CrawlStopSchema(OpenApiViewExtension):
    target_class = "openguru.api_v1.crawl_apis.CrawlStopApi"

    def view_replacement(self) -> type:
        from openguru.api_v1.crawl_apis import CrawlOutput, CrawlStopApi

        @extend_schema_view(
            post=extend_schema(
                operation_id="v1_crawl_stop",
                tags=["v1 data sources"],
                summary="Stop a crawl, keeping the pages found so far",
                description="Needs a staff user's key.",
                request=None,
                responses={200: CrawlOutput, **errors(401, 403, 404, 429)},
                examples=[_CRAWL_EXAMPLE],
            )
        )
        class Documented(CrawlStopApi):
            pass

        return Documented


class GitHubWebhookSchema(OpenApiViewExtension):
    target_class = "openguru.api_v1.webhooks.GitHubWebhookApi"

    def view_replacement(self) -> type:
        from openguru.api_v1.webhooks import GitHubWebhookApi

        @extend_schema_view(
            post=extend_schema(
                operation_id="v1_github_webhook",
                tags=["v1 data sources"],
                summary="GitHub push webhook: re-index the repository's sources",
                description="Set it on the repository with the guru's `github_webhook_secret`. "
                "Trusted by its signature alone (no API key).",
                parameters=[
                    OpenApiParameter(
                        "X-GitHub-Event",
                        str,
                        OpenApiParameter.HEADER,
                        description="`push` re-indexes; `ping` answers pong; others are ignored.",
                    ),
                    OpenApiParameter(
                        "X-Hub-Signature-256",
                        str,
                        OpenApiParameter.HEADER,
                        description="`sha256=<hex HMAC-SHA256 of the body with the secret>`.",
                    ),
                ],
                request={"application/json": {"type": "object", "description": "GitHub's push"}},
                responses={
                    200: IdsOutput,
                    **errors(
                        400,
                        401,
                        403,
                        404,
                        more={
                            401: [
                                (
                                    ErrorCode.NOT_AUTHENTICATED,
                                    "The X-Hub-Signature-256 signature does not match.",
                                )
                            ]
                        },
                    ),
                },
                examples=[
                    OpenApiExample(
                        "push",
                        value={
                            "ref": "refs/heads/main",
                            "repository": {"html_url": "https://github.com/python/peps"},
                        },
                        request_only=True,
                    ),
                    OpenApiExample(
                        "re-indexed",
                        value={"msg": "Queued 1 source(s) for re-indexing.", "ids": [7]},
                        response_only=True,
                    ),
                ],
            )
        )
        class Documented(GitHubWebhookApi):
            pass

        return Documented
