from django.urls import path

from openguru.gurus.apis import (
    GuruDetailApi,
    GuruIconApi,
    GuruListApi,
)
from openguru.gurus.default_icon_apis import GuruDefaultIconApi

urlpatterns = [
    path("gurus/", GuruListApi.as_view(), name="guru-list"),
    path("gurus/<slug:slug>/", GuruDetailApi.as_view(), name="guru-detail"),
    path("gurus/<slug:slug>/icon/", GuruIconApi.as_view(), name="guru-icon"),
    path("gurus/<slug:slug>/icon.svg", GuruDefaultIconApi.as_view(), name="guru-default-icon"),
]
