"""PostgreSQL connections come from a bounded per-process pool: answer streams hop between
threads, and without a pool each hop opened (and closed) its own server connection."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection, connections


@pytest.mark.django_db(transaction=True)
def test_connections_are_pooled_and_reused_across_threads() -> None:
    assert connection.vendor == "postgresql"
    connection.ensure_connection()
    pool = connection.pool
    assert pool is not None
    assert pool.max_size == settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]

    def server_pid() -> int:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                return int(cursor.fetchone()[0])
        finally:
            connections.close_all()  # what every thread hop of the answer engine does

    with ThreadPoolExecutor(max_workers=1) as hop:
        pids = {hop.submit(server_pid).result() for _ in range(5)}
    # Five hops, one server connection: closing returned it to the pool.
    assert len(pids) == 1
