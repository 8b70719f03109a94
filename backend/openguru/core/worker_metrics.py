"""A Celery worker's own /metrics, for workers that share no host (and no
PROMETHEUS_MULTIPROC_DIR) with a web process: Kubernetes pods, separate compose containers.

With WORKER_METRICS_PORT and METRICS_TOKEN set, the worker's main process serves what its pool
processes counted (ingestion pages, chunks and failures; the LLM calls of summaries) to the same
bearer token as the web's /metrics. Queue lengths stay with the web's /metrics: one reading of
the broker per scrape is enough.
"""

import json
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server

from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client.exposition import ThreadingWSGIServer

from openguru.core.metrics_api import NOT_AUTHENTICATED, process_samples, token_matches

logger = logging.getLogger(__name__)

StartResponse = Callable[[str, list[tuple[str, str]]], Any]


def metrics_app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    if environ.get("PATH_INFO") != "/metrics":
        return _reply(start_response, "404 Not Found", {"code": "not_found", "msg": "Not found."})
    if not token_matches(environ.get("HTTP_AUTHORIZATION", "")):
        return _reply(start_response, "401 Unauthorized", NOT_AUTHENTICATED)
    start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST)])
    return [process_samples()]


def _reply(start_response: StartResponse, status: str, body: dict[str, str]) -> list[bytes]:
    start_response(status, [("Content-Type", "application/json")])
    return [json.dumps(body).encode()]


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass  # one line per scrape on stderr would drown the worker's own log


def worker_metrics_serve(*, address: str, port: int) -> ThreadingWSGIServer:
    """Serve /metrics on a daemon thread of this (the worker's main) process."""
    server = make_server(
        address, port, metrics_app, server_class=ThreadingWSGIServer, handler_class=_QuietHandler
    )
    threading.Thread(target=server.serve_forever, name="worker-metrics", daemon=True).start()
    logger.info("worker metrics on http://%s:%s/metrics", address, server.server_port)
    return server
