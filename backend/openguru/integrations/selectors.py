from django.contrib.auth.models import User
from django.db.models import QuerySet

from openguru.integrations.models import APIKey


def api_key_list(*, user: User) -> QuerySet[APIKey]:
    """A user's personal keys, newest first; integration keys (Slack, Discord) are not listed."""
    return APIKey.objects.filter(user=user, integration=False).order_by("-created_at")
