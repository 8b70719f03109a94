"""What the OpenAPI document says of the public API v1's answer view (an async view, documented
by a generated stand-in), and of the crawl and GitHub webhook views, whose modules carry no
schema decorators of their own. Chat completions: `chat_openapi.py`."""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema

from openguru.api_v1.answer import AnswerInput
from openguru.api_v1.apis import ANSWER_EXAMPLE, V1_ERRORS, AnswerOutput
from openguru.api_v1.crawl_apis import CrawlOutput, CrawlStartApi, CrawlStatusApi, CrawlStopApi
from openguru.api_v1.source_apis import IdsOutput
from openguru.api_v1.webhooks import GitHubWebhookApi
from openguru.core.errors import ErrorCode
from openguru.core.openapi import errors
from openguru.core.openapi_stand_ins import Operation, examples, view_schema
from openguru.integrations.apikeys.auth import APIKeyAuthentication, HasAPIKey

# --- POST /api/v1/<guru_slug>/answer/ ------------------------------------------------------

_QUESTION = "How do I create a virtual environment?"
_MARKDOWN = (
    f"# {_QUESTION}\n\n"
    "Create one with `python -m venv myenv` [1], then activate it with "
    "`source myenv/bin/activate`."
)


def markdown_answer(description: str, example: str) -> OpenApiResponse:
    """Gurubase's answer stream (`answer.markdown_stream`): the API's, and the widget's."""
    return OpenApiResponse(
        {
            "description": "Not Server-Sent Events despite the media type (Gurubase's): the raw"
            " markdown answer as it is written, its first line `# <question>`."
        },
        description=description,
        examples=[OpenApiExample("markdown", value=example)],
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
        (200, "application/json"): OpenApiResponse(
            AnswerOutput,
            description="The answer (without `stream`, or with `fetch_existing`).",
            examples=[OpenApiExample("answer", value=ANSWER_EXAMPLE)],
        ),
        (200, "text/event-stream"): markdown_answer("With `stream: true`.", _MARKDOWN),
        **_ANSWER_ERRORS,
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


CrawlStartSchema = view_schema(
    CrawlStartApi,
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
    ),
)
CrawlStatusSchema = view_schema(
    CrawlStatusApi,
    get=extend_schema(
        operation_id="v1_crawl_status",
        tags=["v1 data sources"],
        summary="A crawl and the pages it found so far",
        responses={200: CrawlOutput, **V1_ERRORS},
        examples=[_CRAWL_EXAMPLE],
    ),
)
CrawlStopSchema = view_schema(
    CrawlStopApi,
    post=extend_schema(
        operation_id="v1_crawl_stop",
        tags=["v1 data sources"],
        summary="Stop a crawl, keeping the pages found so far",
        description="Needs a staff user's key.",
        request=None,
        responses={200: CrawlOutput, **errors(401, 403, 404, 429)},
        examples=[_CRAWL_EXAMPLE],
    ),
)
_SIGNATURE_MISMATCH = (
    ErrorCode.NOT_AUTHENTICATED,
    "The X-Hub-Signature-256 signature does not match.",
)
GitHubWebhookSchema = view_schema(
    GitHubWebhookApi,
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
            **errors(400, 401, 403, 404, more={401: [_SIGNATURE_MISMATCH]}),
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
    ),
)
