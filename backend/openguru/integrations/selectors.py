from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import QuerySet

from openguru.answers.selectors import question_titles_recent
from openguru.core.models import partial_instance
from openguru.gurus.models import Guru
from openguru.integrations.domains import origin_allowed
from openguru.integrations.models import APIKey, WidgetId
from openguru.sources.models import DataSource


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
    return APIKey.objects.filter(user=user, integration=False).order_by("-created_at")


def widget_id_list(*, guru: Guru) -> QuerySet[WidgetId]:
    return WidgetId.objects.filter(guru=guru).order_by("-created_at")


def widget_id_by_key(*, key: str) -> WidgetId | None:
    """The widget id a page sends (with its guru), if it exists and its guru is active."""
    if not key or len(key) > 64:
        return None
    return WidgetId.objects.select_related("guru").filter(key=key, guru__active=True).first()


def widget_origin_known(*, origin: str) -> bool:
    """May a page at `origin` embed some widget (of any guru)? What a CORS preflight is
    answered from: it carries no widget id, only the origin."""
    if not origin:
        return False
    patterns = WidgetId.objects.filter(guru__active=True).values_list("domain_pattern", flat=True)
    return any(origin_allowed(pattern=p, origin=origin) for p in patterns.distinct())


def widget_example_questions(*, guru: Guru, limit: int = 3) -> list[str]:
    """What the widget offers to ask before the first question: what visitors asked lately,
    else the titles of the guru's sources. Two small queries at most."""
    examples = question_titles_recent(guru=guru, limit=limit)
    if len(examples) < limit:
        titles = (
            DataSource.objects.filter(guru=guru, status=DataSource.Status.SUCCESS)
            .exclude(title="")
            .order_by("-created_at")
            .values_list("title", flat=True)[: limit - len(examples)]
        )
        examples += list(titles)
    return examples
