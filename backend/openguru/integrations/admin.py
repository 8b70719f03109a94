from django.contrib import admin

from openguru.core.admin import ReadOnlyAdmin
from openguru.integrations.models import (
    APIKey,
    GitHubApp,
    GitHubAppDelivery,
    Integration,
    SlackEvent,
    TeamsActivity,
    Thread,
    WidgetId,
)


@admin.register(APIKey)
class APIKeyAdmin(ReadOnlyAdmin):
    list_display = ["id", "name", "prefix", "user", "integration", "last_used_at", "created_at"]
    list_filter = ["integration"]
    search_fields = ["name", "prefix", "user__username"]
    list_select_related = ["user"]
    exclude = ["hashed_key"]


@admin.register(WidgetId)
class WidgetIdAdmin(ReadOnlyAdmin):
    list_display = ["id", "guru", "domain_pattern", "created_at"]
    search_fields = ["domain_pattern", "guru__slug"]
    list_select_related = ["guru"]
    exclude = ["key"]  # the credential the widget sends


@admin.register(Integration)
class IntegrationAdmin(ReadOnlyAdmin):
    list_display = ["id", "guru", "type", "external_id", "workspace_name", "dms_enabled"]
    list_filter = ["type"]
    search_fields = ["external_id", "workspace_name", "guru__slug"]
    list_select_related = ["guru"]
    exclude = ["access_token", "refresh_token", "signing_secret"]


@admin.register(Thread)
class ThreadAdmin(ReadOnlyAdmin):
    list_display = ["id", "integration", "channel_id", "thread_id", "binge", "created_at"]
    search_fields = ["channel_id", "thread_id"]
    list_select_related = ["integration"]


@admin.register(SlackEvent)
class SlackEventAdmin(ReadOnlyAdmin):
    list_display = ["id", "integration", "event_id", "created_at"]
    search_fields = ["event_id"]
    list_select_related = ["integration"]


@admin.register(TeamsActivity)
class TeamsActivityAdmin(ReadOnlyAdmin):
    list_display = ["id", "integration", "activity_id", "sent_at", "created_at"]
    search_fields = ["activity_id"]
    list_select_related = ["integration"]


@admin.register(GitHubApp)
class GitHubAppAdmin(ReadOnlyAdmin):
    list_display = ["id", "integration", "app_id", "slug", "created_at"]
    search_fields = ["app_id", "slug"]
    list_select_related = ["integration"]
    exclude = ["private_key"]


@admin.register(GitHubAppDelivery)
class GitHubAppDeliveryAdmin(ReadOnlyAdmin):
    list_display = ["id", "integration", "delivery_id", "event", "sent_at", "created_at"]
    search_fields = ["delivery_id"]
    list_select_related = ["integration"]
