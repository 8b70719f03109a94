from django.contrib import admin

from openguru.core.admin import ReadOnlyAdmin
from openguru.sources.models import Crawl, DataSource, EmbeddingCacheEntry, GitHubDelivery


@admin.register(DataSource)
class DataSourceAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "guru",
        "type",
        "title",
        "url",
        "status",
        "chunk_count",
        "last_indexed_at",
    ]
    list_filter = ["type", "status", "private", "crawl_mode"]
    search_fields = ["url", "title", "guru__slug"]
    list_select_related = ["guru"]
    exclude = ["content", "fetch_state"]  # page bodies and per-page validators: large


@admin.register(Crawl)
class CrawlAdmin(ReadOnlyAdmin):
    list_display = ["id", "guru", "url", "status", "link_limit", "created_at", "end_time"]
    list_filter = ["status"]
    search_fields = ["url", "guru__slug"]
    list_select_related = ["guru"]


@admin.register(EmbeddingCacheEntry)
class EmbeddingCacheEntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "model", "text_hash"]
    list_filter = ["model"]
    search_fields = ["text_hash"]
    exclude = ["vector"]


@admin.register(GitHubDelivery)
class GitHubDeliveryAdmin(ReadOnlyAdmin):
    list_display = ["id", "guru", "delivery_id", "created_at"]
    search_fields = ["delivery_id", "guru__slug"]
    list_select_related = ["guru"]
