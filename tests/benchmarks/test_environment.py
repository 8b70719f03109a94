"""The bench's own database: a PostgreSQL one is dropped and re-created for a fresh ingest."""

import psycopg
import pytest
from benchmarks.environment import bench_environment, recreate_postgres_database
from benchmarks.paths import BenchPaths
from django.conf import settings

needs_postgresql = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="needs the PostgreSQL server of the test run",
)


def _server_url(name: str) -> str:
    db = settings.DATABASES["default"]
    user = db.get("USER") or "postgres"
    return f"postgres://{user}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{name}"


@needs_postgresql
def test_recreating_empties_the_database() -> None:
    url = _server_url("og_bench_recreate_test")
    recreate_postgres_database(url)
    with psycopg.connect(url) as connection:
        connection.execute("CREATE TABLE leftover (id int)")
    recreate_postgres_database(url)
    with psycopg.connect(url) as connection:
        tables = connection.execute(
            "SELECT count(*) FROM pg_tables WHERE tablename = 'leftover'"
        ).fetchone()
    assert tables == (0,)
    with psycopg.connect(_server_url("postgres"), autocommit=True) as connection:
        connection.execute("DROP DATABASE og_bench_recreate_test")


def test_only_postgresql_urls_are_recreated(tmp_path) -> None:
    with pytest.raises(ValueError, match="not a PostgreSQL URL"):
        recreate_postgres_database(f"sqlite:///{tmp_path / 'x.sqlite3'}")


def test_the_default_database_is_sqlite_under_the_bench_state(tmp_path) -> None:
    paths = BenchPaths(tmp_path)
    variables = bench_environment(paths, milvus_uri="http://127.0.0.1:1")
    assert variables["DATABASE_URL"] == f"sqlite:///{tmp_path / 'state' / 'bench.sqlite3'}"
    assert variables["FIRECRAWL_API_KEY"] == "" and variables["RERANK_API_URL"] == ""
    chosen = bench_environment(paths, milvus_uri="x", database_url="postgres://h/db")
    assert chosen["DATABASE_URL"] == "postgres://h/db"
