from django.contrib import admin

from openguru.core.admin import ReadOnlyAdmin
from openguru.evaluation.models import GoldenPair, GoldenRun


@admin.register(GoldenPair)
class GoldenPairAdmin(ReadOnlyAdmin):
    list_display = ["id", "guru", "question", "expected_source", "expected_link", "origin"]
    list_filter = ["origin"]
    search_fields = ["question", "guru__slug"]
    list_select_related = ["guru", "expected_source"]


@admin.register(GoldenRun)
class GoldenRunAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "guru",
        "created_at",
        "status",
        "pairs",
        "recall_at_5",
        "refusal_rate",
        "flagged",
    ]
    list_filter = ["status", "flagged"]
    search_fields = ["guru__slug", "flag_reason"]
    list_select_related = ["guru"]
