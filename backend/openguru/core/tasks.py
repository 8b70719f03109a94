"""Celery tasks of core: take plain values, call the service."""

from typing import Any

from celery import shared_task

from openguru.core.site_pages import site_pages_post


@shared_task(soft_time_limit=30, time_limit=40)
def site_pages_revalidate_task(paths: list[str], gurus: list[str]) -> dict[str, Any]:
    """Ask the UI's server to drop cached pages (`core/site_pages.py`); a failure is logged."""
    sent = site_pages_post(paths=paths, gurus=gurus)
    return {"paths": len(paths), "gurus": len(gurus), "sent": sent}
