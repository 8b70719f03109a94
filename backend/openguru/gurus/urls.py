from django.urls import path

from openguru.gurus.apis import GuruDetailApi, GuruListApi, GuruReembedApi

urlpatterns = [
    path("gurus/", GuruListApi.as_view(), name="guru-list"),
    path("gurus/<slug:slug>/", GuruDetailApi.as_view(), name="guru-detail"),
    path("gurus/<slug:slug>/reembed/", GuruReembedApi.as_view(), name="guru-reembed"),
]
