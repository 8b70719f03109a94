import logging
import os
from typing import Any

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("openguru")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@after_setup_logger.connect
@after_setup_task_logger.connect
def _json_log_lines(logger: logging.Logger, **_: Any) -> None:
    """LOG_FORMAT=json: the worker's lines (console or --logfile) as JSON too, each with the
    request id of the request that enqueued the task (django-guid sends it with the message)."""
    from django.conf import settings

    if settings.LOG_FORMAT == "json":
        from openguru.core.logs import use_json_lines

        use_json_lines(logger)


@worker_init.connect
def _worker_metrics(**_: Any) -> None:
    """The worker's own /metrics (WORKER_METRICS_PORT), from its main process: the pool's
    processes are forked after this, so only the main process listens."""
    from django.conf import settings

    if settings.WORKER_METRICS_PORT and settings.METRICS_TOKEN:
        from openguru.core.worker_metrics import worker_metrics_serve

        worker_metrics_serve(
            address=settings.WORKER_METRICS_ADDRESS, port=settings.WORKER_METRICS_PORT
        )
