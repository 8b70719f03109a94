from datetime import datetime

from django.db.models import QuerySet

from openguru.core.audit.models import AuditEvent


def audit_event_list(
    *,
    actor: str = "",
    action: str = "",
    guru_slug: str = "",
    since: datetime | None = None,
    until: datetime | None = None,
) -> QuerySet[AuditEvent]:
    """Newest first. `action` matches a prefix too: "guru" finds guru.create, guru.update…"""
    events = AuditEvent.objects.all()
    if actor:
        events = events.filter(actor=actor)
    if action:
        events = events.filter(action__startswith=action)
    if guru_slug:
        events = events.filter(guru_slug=guru_slug)
    if since is not None:
        events = events.filter(created_at__gte=since)
    if until is not None:
        events = events.filter(created_at__lt=until)
    return events.order_by("-created_at", "-id")
