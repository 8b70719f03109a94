"""The GitHub App bot's Celery tasks (light queue) and the one way a taken delivery reaches its
task. Registered under the names of `integrations/tasks.py`, the module Celery discovers."""

import logging

from celery import Task, shared_task
from django.utils import timezone
from kombu.exceptions import OperationalError

from openguru.core.errors import TransientError
from openguru.integrations.models import GitHubAppDelivery

logger = logging.getLogger(__name__)


# GitHub's primary rate limit resets within the hour; an hour also stays within the broker's
# visibility timeout, so a task waiting that long is not handed to a second worker.
RATE_LIMIT_WAIT_MAX_SECONDS = 3600


@shared_task(
    bind=True,
    name="openguru.integrations.tasks.github_delivery_task",
    autoretry_for=(TransientError,),
    retry_backoff=True,
    max_retries=3,
    soft_time_limit=300,
    time_limit=330,
    ignore_result=True,
)
def github_delivery_task(self: Task, delivery_pk: int) -> None:
    from openguru.integrations.bots.github_app_answers import github_delivery_answer
    from openguru.integrations.bots.github_app_client import GitHubRateLimited

    try:
        github_delivery_answer(delivery_pk=delivery_pk)
    except GitHubRateLimited as exc:  # tried again once GitHub said it may be
        wait = min(exc.retry_after or 60, RATE_LIMIT_WAIT_MAX_SECONDS)
        raise self.retry(exc=exc, countdown=wait) from exc


def github_delivery_send(*, delivery_pk: int) -> bool:
    """Hand a taken delivery to the broker once: the webhook right after taking it, else
    beat's sweep. Marking it sent first keeps the two from both sending it; with the broker
    down the mark is undone and the sweep sends it later. True when sent now."""
    marked = GitHubAppDelivery.objects.filter(pk=delivery_pk, sent_at__isnull=True).update(
        sent_at=timezone.now()
    )
    if marked == 0:
        return False
    try:
        github_delivery_task.delay(delivery_pk)
        return True
    except OperationalError:
        GitHubAppDelivery.objects.filter(pk=delivery_pk).update(sent_at=None)
        logger.warning("github delivery %s: the broker is unreachable; sent later", delivery_pk)
    return False


@shared_task(
    name="openguru.integrations.tasks.github_deliveries_send_unsent",
    soft_time_limit=60,
    time_limit=90,
    ignore_result=True,
)
def github_deliveries_send_unsent() -> int:
    """Beat's sweep: the deliveries taken while the broker was down, answered now."""
    unsent = GitHubAppDelivery.objects.filter(sent_at__isnull=True).order_by("created_at")
    sent = 0
    for delivery_pk in list(unsent.values_list("pk", flat=True)[:500]):
        if not github_delivery_send(delivery_pk=delivery_pk):
            break  # the broker is down again (or another sweep sent it): the next sweep goes on
        sent += 1
    return sent
