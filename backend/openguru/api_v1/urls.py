from django.urls import path

from openguru.api_v1 import answer, chat
from openguru.api_v1.analytics_export import AnalyticsExportApi
from openguru.api_v1.apis import SearchApi, SessionDetailApi, SessionsApi
from openguru.api_v1.crawl_apis import CrawlStartApi, CrawlStatusApi, CrawlStopApi
from openguru.api_v1.source_apis import DataSourcesApi, DataSourcesReindexApi
from openguru.api_v1.webhooks import GitHubWebhookApi
from openguru.api_v1.youtube_apis import YouTubeChannelApi, YouTubePlaylistApi

urlpatterns = [
    path("v1/<slug:guru_slug>/answer/", answer.answer, name="v1-answer"),
    # OpenAI clients append "/chat/completions" to their base URL: no trailing slash.
    path(
        "v1/<slug:guru_slug>/chat/completions",
        chat.chat_completions,
        name="v1-chat-completions",
    ),
    path("v1/<slug:guru_slug>/chat/completions/", chat.chat_completions),
    path("v1/<slug:guru_slug>/data-sources/", DataSourcesApi.as_view(), name="v1-data-sources"),
    path(
        "v1/<slug:guru_slug>/data-sources/reindex/",
        DataSourcesReindexApi.as_view(),
        name="v1-data-sources-reindex",
    ),
    path(
        "v1/<slug:guru_slug>/youtube/playlist/",
        YouTubePlaylistApi.as_view(),
        name="v1-youtube-playlist",
    ),
    path(
        "v1/<slug:guru_slug>/youtube/channel/",
        YouTubeChannelApi.as_view(),
        name="v1-youtube-channel",
    ),
    path("v1/<slug:guru_slug>/sessions/", SessionsApi.as_view(), name="v1-sessions"),
    path(
        "v1/<slug:guru_slug>/sessions/<uuid:session_id>/",
        SessionDetailApi.as_view(),
        name="v1-session-detail",
    ),
    path("v1/<slug:guru_slug>/search/", SearchApi.as_view(), name="v1-search"),
    path("v1/<slug:guru_slug>/crawl/start/", CrawlStartApi.as_view(), name="v1-crawl-start"),
    path(
        "v1/<slug:guru_slug>/crawl/<int:crawl_id>/status/",
        CrawlStatusApi.as_view(),
        name="v1-crawl-status",
    ),
    path(
        "v1/<slug:guru_slug>/crawl/<int:crawl_id>/stop/",
        CrawlStopApi.as_view(),
        name="v1-crawl-stop",
    ),
    path(
        "v1/<slug:guru_slug>/analytics/export/",
        AnalyticsExportApi.as_view(),
        name="v1-analytics-export",
    ),
    path(
        "v1/<slug:guru_slug>/webhooks/github/",
        GitHubWebhookApi.as_view(),
        name="v1-github-webhook",
    ),
]
