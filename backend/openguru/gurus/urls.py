from django.urls import path

from openguru.gurus.apis import (
    GuruDetailApi,
    GuruIconApi,
    GuruListApi,
    GuruReanalyzeApi,
    GuruReembedApi,
)

urlpatterns = [
    path("gurus/", GuruListApi.as_view(), name="guru-list"),
    path("gurus/<slug:slug>/", GuruDetailApi.as_view(), name="guru-detail"),
    path("gurus/<slug:slug>/reembed/", GuruReembedApi.as_view(), name="guru-reembed"),
    path("gurus/<slug:slug>/reanalyze/", GuruReanalyzeApi.as_view(), name="guru-reanalyze"),
    path("gurus/<slug:slug>/icon/", GuruIconApi.as_view(), name="guru-icon"),
]
