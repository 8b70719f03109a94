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

    def one_hop() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        finally:
            connections.close_all()  # what every thread hop of the answer engine does

    with ThreadPoolExecutor(max_workers=1) as hop:
        hop.submit(one_hop).result()
        opened = pool.get_stats()["connections_num"]
        for _ in range(10):
            hop.submit(one_hop).result()
    # Ten more hops, no new server connection: closing returned each one to the pool.
    assert pool.get_stats()["connections_num"] == opened
