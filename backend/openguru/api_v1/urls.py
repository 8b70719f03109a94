from django.urls import path

from openguru.api_v1 import answer
from openguru.api_v1.apis import (
    DataSourcesApi,
    DataSourcesReindexApi,
    SearchApi,
    SessionDetailApi,
    SessionsApi,
)

urlpatterns = [
    path("v1/<slug:guru_slug>/answer/", answer.answer, name="v1-answer"),
    path("v1/<slug:guru_slug>/data-sources/", DataSourcesApi.as_view(), name="v1-data-sources"),
    path(
        "v1/<slug:guru_slug>/data-sources/reindex/",
        DataSourcesReindexApi.as_view(),
        name="v1-data-sources-reindex",
    ),
    path("v1/<slug:guru_slug>/sessions/", SessionsApi.as_view(), name="v1-sessions"),
    path(
        "v1/<slug:guru_slug>/sessions/<uuid:session_id>/",
        SessionDetailApi.as_view(),
        name="v1-session-detail",
    ),
    path("v1/<slug:guru_slug>/search/", SearchApi.as_view(), name="v1-search"),
]
