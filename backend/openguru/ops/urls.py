from django.urls import path

from openguru.ops.apis import HealthApi
from openguru.ops.guru_apis import GuruReanalyzeApi, GuruReembedApi
from openguru.ops.settings_apis import SettingsApi

urlpatterns = [
    path("health/", HealthApi.as_view(), name="health"),
    path("settings/", SettingsApi.as_view(), name="settings"),
    path("gurus/<slug:slug>/reembed/", GuruReembedApi.as_view(), name="guru-reembed"),
    path("gurus/<slug:slug>/reanalyze/", GuruReanalyzeApi.as_view(), name="guru-reanalyze"),
]
