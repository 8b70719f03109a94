"""What the OpenAPI document says of the public ask endpoints (`apis.answer_json`,
`apis.answer_stream`), async views: their events' serializers, examples and errors, from which
their stand-ins are generated (core/openapi_stand_ins.py)."""

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from openguru.answers.apis import QUESTION_EXAMPLE, AskInput, ReferenceSerializer
from openguru.core.errors import ErrorCode
from openguru.core.openapi import ErrorSerializer, EventStream, error_example, errors
from openguru.core.openapi_stand_ins import Operation, examples, response


class AnswerMetaSerializer(serializers.Serializer):
    slug = serializers.SlugField(allow_null=True, help_text="Null when the guru refuses.")
    references = ReferenceSerializer(many=True)
    trust_score = serializers.FloatField(help_text="0 to 1: how well the sources cover it.")
    refused = serializers.BooleanField(help_text="The sources don't cover the question.")
    cached = serializers.BooleanField(required=False, help_text="A saved answer, replayed.")


class AnswerDeltaSerializer(serializers.Serializer):
    text = serializers.CharField(trim_whitespace=False, help_text="The next piece of markdown.")


class AnswerDoneSerializer(serializers.Serializer):
    """The saved answer; a refusal carries only `refused` and `content` (why there is none)."""

    refused = serializers.BooleanField()
    content = serializers.CharField(help_text="The whole answer, in markdown.")
    id = serializers.IntegerField(required=False)
    slug = serializers.SlugField(required=False)
    question = serializers.CharField(required=False, help_text="The question, tidied.")
    references = ReferenceSerializer(many=True, required=False)
    trust_score = serializers.FloatField(required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    extractive = serializers.BooleanField(required=False, help_text="Quoted without an LLM.")
    binge_id = serializers.UUIDField(required=False, allow_null=True)
    date_updated = serializers.DateTimeField(required=False)
    cached = serializers.BooleanField(required=False)


class AnswerResultSerializer(AnswerDoneSerializer):
    """The whole answer in one object: the stream's `meta` and `done` events merged."""

    slug = serializers.SlugField(allow_null=True, help_text="Null when the guru refuses.")
    references = ReferenceSerializer(many=True)
    trust_score = serializers.FloatField()


class AnswerEventsSerializer(EventStream):
    """`meta` (the references, before any text), `delta`… (the answer as it is written),
    then `done` (the saved answer) — or `error` once the stream has started."""

    events = (
        ("meta", AnswerMetaSerializer),
        ("delta", AnswerDeltaSerializer),
        ("done", AnswerDoneSerializer),
        ("error", ErrorSerializer),
    )


# The question example's fields that an answer has.
_ANSWERED = {
    **{k: v for k, v in QUESTION_EXAMPLE.items() if k in AnswerResultSerializer().fields},
    "id": 42,
    "date_updated": "2025-01-01T12:00:00+00:00",
    "refused": False,
}
_REFUSED: dict[str, Any] = {
    "slug": None,
    "references": [],
    "trust_score": 0.0,
    "refused": True,
    "content": "I don't know. The sources this Guru has read don't cover that question, so I "
    "won't guess. Try rephrasing it, or ask about something in its documentation.",
}
_STREAM = (
    "event: meta\n"
    'data: {"slug": "how-do-i-create-a-virtual-environment", "references": [{"title": '
    '"Virtual environments", "link": "https://docs.python.org/3/library/venv.html", '
    '"icon": "web"}], "trust_score": 0.82, "refused": false}\n\n'
    "event: delta\n"
    'data: {"text": "Create one with "}\n\n'
    "event: delta\n"
    'data: {"text": "`python -m venv myenv` [1]."}\n\n'
    "event: done\n"
    'data: {"id": 42, "slug": "how-do-i-create-a-virtual-environment", "content": "…", '
    '"refused": false, "…": "…"}\n\n'
)

_REQUEST_EXAMPLES = examples(
    {
        "question": {"question": "How do I create a virtual environment?"},
        "follow-up": {
            "question": "And how do I activate it?",
            "binge_id": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40",
            "mode": "fast",
        },
    },
    request_only=True,
)
_UNAVAILABLE = "The vector store is not reachable; try again in a moment."
_MORE_ERRORS = {
    400: [(ErrorCode.MALFORMED_JSON, "The request body is not valid JSON.")],
    404: [
        (ErrorCode.NOT_FOUND, "No such follow-up session."),
        (ErrorCode.QUESTION_NOT_FOUND, "No question 'what-is-x' in this guru."),
    ],
    503: [(ErrorCode.PROVIDER_UNAVAILABLE, _UNAVAILABLE)],
}
_ASK_ERRORS = {
    **errors(400, 404, 503, more=_MORE_ERRORS),
    429: OpenApiResponse(
        ErrorSerializer,
        description="Too many questions from this address; see Retry-After.",
        examples=[
            error_example(ErrorCode.RATE_LIMITED, "Too many questions; try again in a minute.")
        ],
    ),
}


ANSWER_JSON = Operation(
    operation_id="answer_ask",
    tag="answers",
    summary="Ask a guru (JSON)",
    description="""
    Ask a guru; the whole answer comes back as one JSON object (for scripts and bots).
    A question the sources don't cover is answered with `refused: true` and no references.""",
    request=AskInput,
    responses={200: AnswerResultSerializer, **_ASK_ERRORS},
    examples=[
        *_REQUEST_EXAMPLES,
        *examples({"answered": _ANSWERED, "refused": _REFUSED}, response_only=True),
    ],
)
ANSWER_STREAM = Operation(
    operation_id="answer_stream",
    tag="answers",
    summary="Ask a guru (Server-Sent Events)",
    description="""
    Ask a guru; the answer streams as Server-Sent Events while it is written: `meta` first
    (slug, references, trust score), then `delta` events, then `done` with the saved answer.
    A failure after the stream started is an `error` event; one before it is a JSON error.""",
    request=AskInput,
    responses={
        (200, "text/event-stream"): response(
            AnswerEventsSerializer,
            "One schema per event: `event` names it, `data` is its JSON.",
            answer=_STREAM,
        ),
        **_ASK_ERRORS,
    },
    examples=_REQUEST_EXAMPLES,
)
