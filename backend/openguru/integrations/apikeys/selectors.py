from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import QuerySet

from openguru.core.models import partial_instance
from openguru.integrations.models import APIKey


def api_key_candidates(*, prefix: str) -> list[APIKey]:
    """Keys with this visible prefix, each with its user's active and staff flags (the rest of
    the user is read only if asked for). Raw SQL: it runs on every API request, and building
    this query through the ORM takes about fifteen times as long as running it."""
    user_model = get_user_model()
    quote = connection.ops.quote_name
    keys = APIKey.objects.raw(
        f"SELECT k.*, u.is_active AS owner_active, u.is_staff AS owner_staff "  # noqa: S608
        f"FROM {quote(APIKey._meta.db_table)} k "
        f"JOIN {quote(user_model._meta.db_table)} u ON u.id = k.user_id WHERE k.prefix = %s",
        [prefix],
    )
    found = list(keys)
    for key in found:
        loaded = {
            "id": key.user_id,
            "is_active": bool(key.owner_active),  # type: ignore[attr-defined]
            "is_staff": bool(key.owner_staff),  # type: ignore[attr-defined]
        }
        key.user = partial_instance(user_model, loaded)
    return found


def api_key_list(*, user: User) -> QuerySet[APIKey]:
    """A user's personal keys, newest first; integration keys (Slack, Discord) are not listed."""
    keys = APIKey.objects.filter(user=user, integration=False).prefetch_related("gurus")
    return keys.order_by("-created_at")
