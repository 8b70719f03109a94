from django.contrib import admin

from openguru.core.admin import ReadOnlyAdmin
from openguru.gurus.models import Guru


@admin.register(Guru)
class GuruAdmin(ReadOnlyAdmin):
    list_display = ["slug", "name", "active", "embedding_model", "created_at"]
    list_filter = ["active", "embedding_model"]
    search_fields = ["slug", "name", "domain_knowledge"]
    exclude = ["github_webhook_secret"]
