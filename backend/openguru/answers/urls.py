from django.urls import path

from openguru.answers.analytics.apis import GuruAnalyticsApi, GuruGapsApi, GuruRefusalsApi
from openguru.answers.apis import (
    BingeCreateApi,
    BingeDetailApi,
    QuestionDetailApi,
    answer_json,
    answer_stream,
)
from openguru.answers.quality.trace_apis import QuestionTraceApi, RefusalTraceApi
from openguru.answers.site.apis import (
    GuruOverviewApi,
    QuestionFollowUpsApi,
    QuestionVoteApi,
    SitemapIndexApi,
    SitemapQuestionsApi,
)

urlpatterns = [
    path("gurus/<slug:slug>/answer/stream/", answer_stream, name="answer-stream"),
    path("gurus/<slug:slug>/answer/", answer_json, name="answer"),
    path(
        "gurus/<slug:slug>/questions/<slug:question_slug>/",
        QuestionDetailApi.as_view(),
        name="question-detail",
    ),
    path(
        "gurus/<slug:slug>/questions/<slug:question_slug>/vote/",
        QuestionVoteApi.as_view(),
        name="question-vote",
    ),
    path(
        "gurus/<slug:slug>/questions/<slug:question_slug>/follow-ups/",
        QuestionFollowUpsApi.as_view(),
        name="question-follow-ups",
    ),
    path(
        "gurus/<slug:slug>/questions/<int:question_id>/trace/",
        QuestionTraceApi.as_view(),
        name="question-trace",
    ),
    path(
        "gurus/<slug:slug>/refusals/<int:refusal_id>/trace/",
        RefusalTraceApi.as_view(),
        name="refusal-trace",
    ),
    path("gurus/<slug:slug>/overview/", GuruOverviewApi.as_view(), name="guru-overview"),
    path("gurus/<slug:slug>/analytics/", GuruAnalyticsApi.as_view(), name="guru-analytics"),
    path(
        "gurus/<slug:slug>/analytics/refusals/",
        GuruRefusalsApi.as_view(),
        name="guru-analytics-refusals",
    ),
    path("gurus/<slug:slug>/analytics/gaps/", GuruGapsApi.as_view(), name="guru-analytics-gaps"),
    path("sitemap/", SitemapIndexApi.as_view(), name="sitemap-index"),
    path("sitemap/questions/", SitemapQuestionsApi.as_view(), name="sitemap-questions"),
    path("gurus/<slug:slug>/binges/", BingeCreateApi.as_view(), name="binge-create"),
    path(
        "gurus/<slug:slug>/binges/<uuid:binge_id>/", BingeDetailApi.as_view(), name="binge-detail"
    ),
]
