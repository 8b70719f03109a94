"""Blocking work (ORM, embedding, vector search) from async code."""

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import close_old_connections

T = TypeVar("T")


async def run_blocking(fn: Callable[..., T], *args: Any) -> T:
    """Run `fn` in a worker thread of a shared pool, then treat the thread's database connection
    as Django does at the end of a request: kept within CONN_MAX_AGE (SQLite), handed back to
    the pool (PostgreSQL), closed otherwise.

    Unlike `sync_to_async`, whose ASGI requests each get a new thread (and so a new database
    connection), the pool's threads are reused, so an answer pays for no thread or connection
    setup on its way to the first token."""

    def call() -> T:
        try:
            return fn(*args)
        finally:
            close_old_connections()

    return await asyncio.to_thread(call)
