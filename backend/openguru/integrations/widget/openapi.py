"""OpenAPI documentation of the widget: its credential (the widget id in `Authorization`), and
what the document says of the async `widget_ask` view, from which its stand-in is generated."""

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import serializers

from openguru.answers.apis import REFERENCE_EXAMPLE
from openguru.answers.channels.gurubase_docs import ANSWER_EXAMPLE, MARKDOWN_STREAM
from openguru.core.errors import ErrorCode
from openguru.core.openapi import errors
from openguru.core.openapi_stand_ins import Operation, examples, response
from openguru.integrations.widget.ask import WidgetAskInput
from openguru.integrations.widget.auth import HasWidgetId, WidgetIdAuthentication


class WidgetIdScheme(OpenApiAuthenticationExtension):
    target_class = "openguru.integrations.widget.auth.WidgetIdAuthentication"
    name = "WidgetId"

    def get_security_definition(self, auto_schema: openapi.AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A widget id (POST /api/gurus/{slug}/widget-ids/), from a page whose "
            "origin its domain pattern allows. A private guru's widget also sends X-Widget-Token: "
            "\"<expires>.<hex HMAC-SHA256 of '<user id>:<expires>' with the widget id's "
            'secret>.<user id>", at most an hour ahead; else 401 widget_token_required, '
            "widget_token_invalid or widget_token_expired.",
        }


class WidgetReferenceSerializer(serializers.Serializer):
    question = serializers.CharField(help_text="The page's title (Gurubase's widget name).")
    link = serializers.CharField(help_text="Empty for private or pasted sources.")
    icon = serializers.CharField(
        help_text="The source's kind: web, pdf, youtube, github, text, faq."
    )


class WidgetAnswerSerializer(serializers.Serializer):
    slug = serializers.SlugField(help_text="Send it as `parent_slug` with the next question.")
    content = serializers.CharField(help_text="The whole answer, in markdown.")
    question = serializers.CharField()
    date_updated = serializers.CharField()
    trust_score = serializers.IntegerField(min_value=0, max_value=100)
    references = WidgetReferenceSerializer(many=True)


class WidgetAskErrorSerializer(serializers.Serializer):
    msg = serializers.CharField()
    code = serializers.CharField()
    not_error = serializers.BooleanField(
        required=False, help_text="A polite refusal (the sources don't cover it), not a failure."
    )


_QUESTION = ANSWER_EXAMPLE["question"]
_MARKDOWN = f"# {_QUESTION}\n\n{ANSWER_EXAMPLE['content']}"
_REFUSAL = "I don't know. The sources this Guru has read don't cover this question."
# The API's answer without its session; a reference names its page `question`.
_ANSWER = {key: value for key, value in ANSWER_EXAMPLE.items() if key != "session_id"} | {
    "references": [{"question" if k == "title" else k: v for k, v in REFERENCE_EXAMPLE.items()}]
}
_MORE_ERRORS = {
    401: [(ErrorCode.NOT_AUTHENTICATED, "This widget id may not be used on this site.")],
    404: [(ErrorCode.QUESTION_NOT_FOUND, "This question has not been answered yet.")],
    429: [(ErrorCode.RATE_LIMITED, "You have asked 30 questions this hour, the most…")],
}
_INVALID = {"msg": "question: This field is required.", "code": "invalid_input"}

WIDGET_ASK = Operation(
    operation_id="widget_ask",
    tag="widget",
    summary="Ask the widget's guru",
    description="""
    Ask the widget's guru. A new answer streams as raw markdown; `fetch_existing: true`
    with the same question (and session) returns the saved answer once the stream is done.
    A question the sources don't cover is a `400` with `not_error: true`.""",
    request=WidgetAskInput,
    responses={
        (200, "text/event-stream"): response(MARKDOWN_STREAM, "A new answer.", markdown=_MARKDOWN),
        (200, "application/json"): response(
            WidgetAnswerSerializer, "With `fetch_existing`: the saved answer.", answer=_ANSWER
        ),
        400: response(
            WidgetAskErrorSerializer,
            "Invalid input, or the guru declines (`not_error`).",
            refusal={"msg": _REFUSAL, "code": "no_answer", "not_error": True},
            invalid=_INVALID,
        ),
        **errors(401, 404, 429, 502, 503, more=_MORE_ERRORS),
    },
    examples=examples(
        {
            "question": {
                "question": _QUESTION,
                "parent_slug": None,
                "binge_id": None,
                "fetch_existing": False,
            },
            "fetch the streamed answer": {"question": _QUESTION, "fetch_existing": True},
        }
    ),
    authentication=[WidgetIdAuthentication],
    permissions=[HasWidgetId],
)
