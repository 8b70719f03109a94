from django.urls import path

from openguru.evaluation.golden_apis import (
    GoldenPairDetailApi,
    GoldenPairListApi,
    GoldenRunListApi,
)

urlpatterns = [
    path("gurus/<slug:slug>/golden/pairs/", GoldenPairListApi.as_view(), name="golden-pair-list"),
    path(
        "gurus/<slug:slug>/golden/pairs/<int:pair_id>/",
        GoldenPairDetailApi.as_view(),
        name="golden-pair-detail",
    ),
    path("gurus/<slug:slug>/golden/runs/", GoldenRunListApi.as_view(), name="golden-run-list"),
]
