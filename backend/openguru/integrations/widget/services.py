"""Widget ids of a guru: the public credential its embedding pages send."""

import secrets

from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.models import WidgetId


def widget_id_create(*, guru: Guru, domain_pattern: str = "") -> WidgetId:
    return WidgetId.objects.create(
        guru=guru, key=secrets.token_urlsafe(24), domain_pattern=domain_pattern.strip()
    )


def widget_id_delete(*, guru: Guru, widget_id: int) -> None:
    """Pages with this widget id get 401 from the next request on."""
    deleted, _ = WidgetId.objects.filter(guru=guru, pk=widget_id).delete()
    if not deleted:
        raise DomainError(ErrorCode.NOT_FOUND, f"This guru has no widget id {widget_id}.")
