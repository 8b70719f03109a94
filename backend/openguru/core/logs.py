"""Log lines: readable text by default, one JSON object per line with `LOG_FORMAT=json`.

Every JSON line carries `request_id`: the id django-guid takes from the request's X-Request-ID
(or makes up) and carries into the Celery tasks the request enqueues, so one question or one
added source can be followed from the web process through the workers.
"""

import logging
from typing import Any

from django_guid.log_filters import CorrelationId
from pythonjsonlogger.json import JsonFormatter

JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s %(correlation_id)s"
RENAMED_FIELDS = {
    "asctime": "time",
    "levelname": "level",
    "name": "logger",
    "correlation_id": "request_id",
}


def json_formatter() -> logging.Formatter:
    return JsonFormatter(JSON_FIELDS, rename_fields=RENAMED_FIELDS)


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """Django's LOGGING for the chosen format (text | json)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "django_guid.log_filters.CorrelationId"}},
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
            "json": {"()": "openguru.core.logs.json_formatter"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "json" if log_format == "json" else "plain",
                "filters": ["request_id"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "httpx": {"level": "WARNING"},
            "urllib3": {"level": "WARNING"},
            # The MCP server runs a session manager per request (api_v1/mcp_server.py): its
            # start and stop would be two INFO lines for every MCP request.
            "mcp.server.streamable_http_manager": {"level": "WARNING"},
            # Says at INFO, for every request and task, whether the id came with it.
            "django_guid": {"level": "WARNING"},
        },
    }


def gunicorn_logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """gunicorn's logconfig_dict: Django's LOGGING, plus gunicorn's own loggers on the same
    handler. uvicorn's workers write their access lines through gunicorn's access logger while
    the request's task runs, so those lines carry its request id too."""
    config = logging_config(log_format=log_format, level=level)
    config["loggers"] |= {
        name: {"handlers": ["console"], "level": level, "propagate": False}
        for name in ("gunicorn.error", "gunicorn.access")
    }
    return config


def adopt_library_loggers(*names: str) -> None:
    """Send the lines of loggers that a library gave text handlers of its own (pymilvus does,
    when first imported) through the root's handler, in LOG_FORMAT like every other line."""
    for name in names:
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.propagate = True


def use_json_lines(logger: logging.Logger) -> None:
    """Switch the handlers Celery set up on `logger` (console or --logfile) to JSON lines."""
    for handler in logger.handlers:
        handler.setFormatter(json_formatter())
        handler.addFilter(CorrelationId())
