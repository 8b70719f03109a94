"""Django's /admin/ for operators: every OpenGuru model can be looked at; changes go through
the API and its services (which also update the vector index, the caches and the bots), so
most models are read-only here. Secrets (key hashes, bot tokens, webhook secrets) never show."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from openguru.core.models import PlatformSettings


class ReadOnlyAdmin(admin.ModelAdmin):
    """View-only: no add, change or delete (Django then shows every field read-only)."""

    list_per_page = 50
    show_full_result_count = False  # a COUNT(*) over a big table on every page costs seconds

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ModeratedAdmin(ReadOnlyAdmin):
    """View and delete (moderation: a question or vote that should not be there)."""

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)


@admin.register(PlatformSettings)
class PlatformSettingsAdmin(admin.ModelAdmin):
    list_display = [
        "__str__", "trust_score_threshold", "trust_score_margin", "similar_question_threshold",
        "low_trust_threshold", "answer_cache_enabled", "updated_at",
    ]  # fmt: skip
    readonly_fields = ["updated_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not PlatformSettings.objects.exists()  # one row

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
