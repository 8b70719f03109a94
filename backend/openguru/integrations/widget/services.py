"""Widget ids of a guru: the public credential its embedding pages send."""

import secrets

from openguru.core.audit.services import audit_fields, audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.crypto import secret_encrypt
from openguru.integrations.models import WidgetId
from openguru.integrations.widget.domains import domain_pattern_valid


def widget_id_create(*, guru: Guru, domain_pattern: str) -> WidgetId:
    """A widget id for the sites `domain_pattern` names (`domains.py`); "any site" must be said
    as "*", so an empty pattern is refused rather than granting it."""
    pattern = domain_pattern.strip()
    if not pattern:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            'domain_pattern: name the sites that may embed the widget, or "*" for any site.',
        )
    if not domain_pattern_valid(pattern):
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            f"domain_pattern: {pattern!r} is not a site, e.g. https://docs.example.com.",
        )
    widget = WidgetId.objects.create(
        guru=guru, key=secrets.token_urlsafe(24), domain_pattern=pattern
    )
    after = audit_fields(widget, ["domain_pattern"])
    audit_record(action="widget_id.create", target=widget, guru=guru, after=after)
    return widget


def widget_id_delete(*, guru: Guru, widget_id: int) -> None:
    """Pages with this widget id get 401 from the next request on."""
    widget = WidgetId.objects.filter(guru=guru, pk=widget_id).first()
    if widget is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"This guru has no widget id {widget_id}.")
    before = audit_fields(widget, ["domain_pattern"])
    audit_record(action="widget_id.delete", target=widget, guru=guru, before=before)
    widget.delete()


def widget_secret_rotate(*, guru: Guru, widget_id: int) -> tuple[WidgetId, str]:
    """A new secret for the identity tokens of this widget id (a private guru's widget needs
    them); returned once, kept encrypted. Tokens signed with the previous one stop working."""
    widget = WidgetId.objects.filter(guru=guru, pk=widget_id).first()
    if widget is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"This guru has no widget id {widget_id}.")
    secret = "ogws_" + secrets.token_urlsafe(32)
    had_one = bool(widget.secret)
    widget.secret = secret_encrypt(secret)
    widget.save(update_fields=["secret", "updated_at"])
    audit_record(
        action="widget_id.secret",
        target=widget,
        guru=guru,
        before={"secret_set": had_one},
        after={"secret_set": True},
    )
    return widget, secret
