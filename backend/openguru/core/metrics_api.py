"""GET /metrics: the Prometheus text format, for `Authorization: Bearer <METRICS_TOKEN>` only.

A token rather than an address allow-list: behind nginx every request comes from the proxy's
address, so an allow-list of private networks would let the whole internet through.
"""

import hmac
import logging
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

from openguru.core.errors import ErrorCode
from openguru.core.queues import CRAWL_QUEUE, LIGHT_QUEUE

logger = logging.getLogger(__name__)


def celery_queues() -> list[str]:
    return sorted({settings.CELERY_TASK_DEFAULT_QUEUE, CRAWL_QUEUE, LIGHT_QUEUE})


def queue_lengths() -> dict[str, int]:
    """Messages waiting in each Celery queue, asked of the broker now. Raises if it is down."""
    # The app config/celery.py made current (the Celery app of this process), not imported from
    # there: config imports this module to serve it.
    from celery import current_app as app

    timeout = settings.METRICS_BROKER_TIMEOUT_SECONDS
    lengths: dict[str, int] = {}
    options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    with app.connection_for_read(
        url=settings.CELERY_BROKER_URL, connect_timeout=timeout, transport_options=options
    ) as conn:
        conn.ensure_connection(max_retries=1, timeout=timeout)
        for queue in celery_queues():
            # A channel per queue: AMQP closes the channel that asked about a missing queue.
            channel: Any = conn.channel()
            try:
                lengths[queue] = channel.queue_declare(queue=queue, passive=True).message_count
            except conn.channel_errors:
                lengths[queue] = 0  # never declared, or emptied and removed: nothing waits
            finally:
                channel.close()
    return lengths


class QueueLengthCollector:
    """Read at scrape time, so the number is the broker's, not a process's stale copy."""

    def collect(self) -> Iterator[Metric]:
        length = GaugeMetricFamily(
            "openguru_celery_queue_length", "Messages waiting in a Celery queue.", labels=["queue"]
        )
        up = GaugeMetricFamily("openguru_celery_broker_up", "1 if the broker answered the scrape.")
        try:
            lengths = queue_lengths()
        except Exception as exc:  # a down broker is a reading (0), not a failed scrape
            logger.warning("metrics: broker unreachable: %s", exc)
            up.add_metric([], 0)
        else:
            up.add_metric([], 1)
            for queue, count in lengths.items():
                length.add_metric([queue], count)
        yield length
        yield up


def process_samples() -> bytes:
    """This process's samples or, with PROMETHEUS_MULTIPROC_DIR, those of every process that
    writes there (a web server's workers, a Celery worker's pool)."""
    if settings.PROMETHEUS_MULTIPROC_DIR:
        processes = CollectorRegistry()
        MultiProcessCollector(processes)
        return generate_latest(processes)
    return generate_latest(REGISTRY)


def _exposition() -> bytes:
    broker = CollectorRegistry()
    broker.register(QueueLengthCollector())
    return process_samples() + generate_latest(broker)


def token_matches(authorization: str) -> bool:
    expected = f"Bearer {settings.METRICS_TOKEN}".encode()
    return hmac.compare_digest(authorization.encode(), expected)


NOT_AUTHENTICATED = {
    "code": str(ErrorCode.NOT_AUTHENTICATED),
    "msg": "Send Authorization: Bearer <token>.",
}


def _authorized(request: HttpRequest) -> bool:
    return token_matches(request.headers.get("Authorization", ""))


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponseBase:
    if not settings.METRICS_TOKEN:
        raise Http404
    if not _authorized(request):
        return JsonResponse(NOT_AUTHENTICATED, status=401)
    return HttpResponse(_exposition(), content_type=CONTENT_TYPE_LATEST)
