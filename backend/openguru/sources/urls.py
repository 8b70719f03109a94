from django.urls import path

from openguru.sources.apis import SourceDetailApi, SourceListApi, SourceReindexApi, SourceTokenApi

urlpatterns = [
    path("gurus/<slug:slug>/sources/", SourceListApi.as_view(), name="source-list"),
    path(
        "gurus/<slug:slug>/sources/<int:source_id>/",
        SourceDetailApi.as_view(),
        name="source-detail",
    ),
    path(
        "gurus/<slug:slug>/sources/<int:source_id>/reindex/",
        SourceReindexApi.as_view(),
        name="source-reindex",
    ),
    path(
        "gurus/<slug:slug>/sources/<int:source_id>/token/",
        SourceTokenApi.as_view(),
        name="source-token",
    ),
]
