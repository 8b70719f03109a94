from celery import shared_task

from openguru.core.audit.services import audit_prune


@shared_task
def audit_events_prune() -> int:
    """Beat's daily prune of events past the retention setting."""
    return audit_prune()
