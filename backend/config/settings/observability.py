"""Logs (text or JSON lines, with a request id that follows work into Celery) and metrics."""

from django.core.exceptions import ImproperlyConfigured
from django_guid.integrations import CeleryIntegration
from openguru.core.logs import logging_config

from config.env import env

LOG_FORMAT = env.str("LOG_FORMAT", default="text")  # text | json
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r} is not valid: expected text or json.")
LOGGING = logging_config(log_format=LOG_FORMAT, level=env.str("LOG_LEVEL", default="INFO"))

# The request id: taken from X-Request-ID when it is a UUID (nginx's $request_id is one), else
# made up; returned in the same header, and sent along with every task the request enqueues.
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "RETURN_HEADER": True,
    # It would replace the CORS expose list the widget needs (Retry-After).
    "EXPOSE_HEADER": False,
    "INTEGRATIONS": [CeleryIntegration()],
    "IGNORE_URLS": ["metrics", "api/health"],
}

# /metrics (Prometheus text format) answers only `Authorization: Bearer <METRICS_TOKEN>`;
# empty: /metrics is off (404).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
# prometheus_client reads this variable itself when first imported: every process (web
# workers, Celery workers) then writes its samples there and /metrics adds them up.
PROMETHEUS_MULTIPROC_DIR = env.str("PROMETHEUS_MULTIPROC_DIR", default="")
# Each queue's length is read from the broker while /metrics is scraped, waiting at most this.
METRICS_BROKER_TIMEOUT_SECONDS = env.float("METRICS_BROKER_TIMEOUT_SECONDS", default=2.0)
# A Celery worker serves its own /metrics on this port (0: off, the default) to the same token:
# for workers on other hosts or pods than the web (openguru/core/worker_metrics.py).
WORKER_METRICS_PORT = env.int("WORKER_METRICS_PORT", default=0)
WORKER_METRICS_ADDRESS = env.str("WORKER_METRICS_ADDRESS", default="0.0.0.0")  # noqa: S104
