"""Sending a Celery task named by its dotted path, from the service its task calls back.

A task module imports the services it runs; a service that enqueues that task would import the
task module back, and the two would form an import cycle. So the service names the task
(`openguru.sources.tasks.source_process_task`) and this imports it on first use, as a
function-level import would: the same `@shared_task` object, so it runs eagerly where tasks run
eagerly, and a broker that is down raises `OperationalError` to the caller as before."""

from typing import Any

from kombu.utils.imports import symbol_by_name


def task_send(name: str, *args: Any, **options: Any) -> None:
    symbol_by_name(name).apply_async(args, **options)
