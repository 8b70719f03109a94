from django.db.models import QuerySet

from openguru.answers.selectors import question_titles_recent
from openguru.answers.site.phrasing import question_from_heading
from openguru.gurus.models import Guru
from openguru.integrations.models import WidgetId
from openguru.integrations.widget.domains import origin_allowed
from openguru.sources.models import DataSource


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
    else questions made from the titles of the guru's sources. Two small queries at most."""
    examples = question_titles_recent(guru=guru, limit=limit)
    if len(examples) < limit:
        titles = (
            DataSource.objects.filter(guru=guru, status=DataSource.Status.SUCCESS)
            .exclude(title="")
            .order_by("-created_at")
            .values_list("title", flat=True)[: limit - len(examples)]
        )
        examples += [question_from_heading(title, subject=guru.name) for title in titles]
    return [example for example in examples if example]
