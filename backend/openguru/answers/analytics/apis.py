"""A guru's analytics for the admin console: counts, refusals and docs gaps over an interval."""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.answers.analytics.gaps import docs_gaps
from openguru.answers.analytics.selectors import (
    INTERVALS,
    Interval,
    guru_analytics,
    interval_get,
    weak_questions_page,
)
from openguru.core.openapi import errors
from openguru.gurus.selectors import guru_get
from openguru.providers.embeddings.factory import get_embedder

REFUSALS_PAGE_SIZE = 50
CHANNEL_NAMES = ["ui", "api", "widget", "slack", "discord", "teams", "github"]

INTERVAL_PARAMETER = OpenApiParameter(
    "interval",
    str,
    enum=list(INTERVALS),
    description="Whole days (UTC) up to today; 30d unless given.",
)


class IntervalQuery(serializers.Serializer):
    interval = serializers.ChoiceField(choices=list(INTERVALS), default="30d")
    page = serializers.IntegerField(min_value=1, max_value=1_000_000, default=1)


def _interval(request: Request) -> tuple[Interval, int]:
    query = IntervalQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return interval_get(name=query.validated_data["interval"]), query.validated_data["page"]


class DayCounts(serializers.Serializer):
    date = serializers.DateField()
    ui = serializers.IntegerField()
    api = serializers.IntegerField()
    widget = serializers.IntegerField()
    slack = serializers.IntegerField()
    discord = serializers.IntegerField()
    teams = serializers.IntegerField()
    github = serializers.IntegerField()
    total = serializers.IntegerField()


class Totals(serializers.Serializer):
    questions = serializers.IntegerField(help_text="Asked: answered and refused.")
    refused = serializers.IntegerField(help_text="Judged not a real question.")
    out_of_context = serializers.IntegerField(help_text="The sources don't cover it.")
    low_trust = serializers.IntegerField(help_text="Answered below the low-trust setting.")
    upvotes = serializers.IntegerField()
    downvotes = serializers.IntegerField()


class Bucket(serializers.Serializer):
    start = serializers.FloatField()
    end = serializers.FloatField()
    count = serializers.IntegerField()


class CitedSource(serializers.Serializer):
    title = serializers.CharField(allow_blank=True)
    url = serializers.CharField(allow_blank=True, help_text='"" for a pasted or private source.')
    citations = serializers.IntegerField(help_text="Answers that cite it.")


class DayVotes(serializers.Serializer):
    date = serializers.DateField()
    up = serializers.IntegerField()
    down = serializers.IntegerField()


class AnalyticsOutput(serializers.Serializer):
    interval = serializers.ChoiceField(choices=list(INTERVALS))
    start = serializers.DateTimeField()
    end = serializers.DateTimeField(help_text="Exclusive: midnight after the last day.")
    totals = Totals()
    questions_per_day = DayCounts(many=True, help_text="Every day, oldest first.")
    trust_histogram = Bucket(many=True, help_text="Ten buckets of answers by trust score.")
    top_sources = CitedSource(many=True)
    votes_per_day = DayVotes(many=True, help_text="Every day, oldest first.")


class WeakQuestion(serializers.Serializer):
    question = serializers.CharField()
    asked_at = serializers.DateTimeField()
    channel = serializers.CharField(help_text=f"One of {', '.join(CHANNEL_NAMES)}.")
    reason = serializers.ChoiceField(choices=["refused", "out_of_context", "low_trust"])
    trust_score = serializers.FloatField(allow_null=True, help_text="Null for a refusal.")


class WeakQuestionPage(serializers.Serializer):
    count = serializers.IntegerField(help_text=f"On all pages ({REFUSALS_PAGE_SIZE} a page).")
    results = WeakQuestion(many=True)


class Gap(serializers.Serializer):
    # A field named like Field.label: DRF's metaclass takes it out of the class (runtime is fine).
    label = serializers.CharField(  # type: ignore[assignment]
        help_text="The group's most frequent content words."
    )
    size = serializers.IntegerField()
    examples = serializers.ListField(child=serializers.CharField())


class GapsOutput(serializers.Serializer):
    clusters = Gap(many=True, help_text="Largest first.")


_DAY = {
    "date": "2025-01-01",
    "ui": 3,
    "api": 1,
    "widget": 4,
    "slack": 0,
    "discord": 0,
    "teams": 0,
    "github": 0,
    "total": 8,
}
_ANALYTICS = {
    "interval": "7d",
    "start": "2024-12-26T00:00:00+00:00",
    "end": "2025-01-02T00:00:00+00:00",
    "totals": {
        "questions": 8,
        "refused": 1,
        "out_of_context": 2,
        "low_trust": 1,
        "upvotes": 3,
        "downvotes": 1,
    },
    "questions_per_day": [_DAY],
    "trust_histogram": [{"start": 0.7, "end": 0.8, "count": 5}],
    "top_sources": [
        {
            "title": "Virtual environments",
            "url": "https://docs.python.org/3/library/venv.html",
            "citations": 4,
        }
    ],
    "votes_per_day": [{"date": "2025-01-01", "up": 3, "down": 1}],
}


class GuruAnalyticsApi(APIView):
    @extend_schema(
        operation_id="analytics_get",
        tags=["analytics"],
        summary="A guru's questions, refusals, trust scores, cited sources and votes",
        parameters=[INTERVAL_PARAMETER],
        responses={200: AnalyticsOutput, **errors(400, 401, 403, 404)},
        examples=[OpenApiExample("a week", value=_ANALYTICS, response_only=True)],
    )
    def get(self, request: Request, slug: str) -> Response:
        interval, _ = _interval(request)
        return Response(guru_analytics(guru=guru_get(slug=slug), interval=interval))


class GuruRefusalsApi(APIView):
    @extend_schema(
        operation_id="analytics_refusals",
        tags=["analytics"],
        summary="Refused and low-trust questions, newest first",
        parameters=[
            INTERVAL_PARAMETER,
            OpenApiParameter("page", int, description="From 1; past the last page is empty."),
        ],
        responses={200: WeakQuestionPage, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "page",
                value={
                    "count": 1,
                    "results": [
                        {
                            "question": "Does it run on a toaster?",
                            "asked_at": "2025-01-01T12:00:00+00:00",
                            "channel": "widget",
                            "reason": "out_of_context",
                            "trust_score": None,
                        }
                    ],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, slug: str) -> Response:
        interval, page = _interval(request)
        return Response(
            weak_questions_page(
                guru=guru_get(slug=slug),
                interval=interval,
                page=page,
                page_size=REFUSALS_PAGE_SIZE,
            )
        )


class GuruGapsApi(APIView):
    @extend_schema(
        operation_id="analytics_gaps",
        tags=["analytics"],
        summary="Docs gaps: refused and low-trust questions grouped by meaning",
        parameters=[INTERVAL_PARAMETER],
        responses={200: GapsOutput, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "gaps",
                value={
                    "clusters": [
                        {
                            "label": "proxy · configure · corporate",
                            "size": 12,
                            "examples": ["How do I set a proxy?", "Proxy settings for pip?"],
                        }
                    ]
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, slug: str) -> Response:
        interval, _ = _interval(request)
        guru = guru_get(slug=slug)
        return Response(
            {"clusters": docs_gaps(guru=guru, interval=interval, embedder=get_embedder())}
        )
