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


def use_json_lines(logger: logging.Logger) -> None:
    """Switch the handlers Celery set up on `logger` (console or --logfile) to JSON lines."""
    for handler in logger.handlers:
        handler.setFormatter(json_formatter())
        handler.addFilter(CorrelationId())
