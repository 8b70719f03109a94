"""The settings every bench process runs with: its own SQLite database and Milvus Lite server
under `data/bench/`, the real local embedder, and nothing a developer's `.env` could switch on
behind its back (Firecrawl, a reranker, an LLM for ingestion)."""

import os

from benchmarks.paths import BenchPaths


def bench_environment(
    paths: BenchPaths, *, milvus_uri: str, database_url: str = ""
) -> dict[str, str]:
    """Variables for the bench process and the servers it starts. Real environment variables
    win over `.env`, so setting them here pins every value the numbers depend on."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",  # DEBUG keeps every SQL query in memory
        "OPENGURU_DATA_DIR": str(paths.state),
        "DATABASE_URL": database_url or f"sqlite:///{paths.database}",
        "MILVUS_URI": milvus_uri,
        "MILVUS_TOKEN": "",
        "EMBEDDING_PROVIDER": "local",
        "EMBEDDING_MODEL": "all-MiniLM-L6-v2",
        "EMBEDDING_BATCH_SIZE": "32",
        "EMBED_API_URL": "",
        "RERANK_API_URL": "",
        "FIRECRAWL_API_KEY": "",
        "GEMINI_API_KEY": "",
        "LLM_FALLBACK_MODEL": "",
        "LLM_PROVIDER": "none",  # ingestion needs no LLM; the API server gets the fake one
        "CELERY_BROKER_URL": "memory://localhost//",
        "CELERY_TASK_ALWAYS_EAGER": "true",  # the processing task runs in this process
        "CRAWLER_ALLOW_LOOPBACK": "true",
        "ASK_RATE_LIMIT_PER_MINUTE": "0",
        "API_RATE_LIMIT_PER_MINUTE": "0",
        "LOG_LEVEL": "WARNING",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }


def setup_django(
    paths: BenchPaths, *, milvus_uri: str, migrate: bool, database_url: str = ""
) -> None:
    """Point this process at the bench settings, then start Django (once, before any model
    import) and bring the database schema up to date."""
    paths.state.mkdir(parents=True, exist_ok=True)
    os.environ.update(bench_environment(paths, milvus_uri=milvus_uri, database_url=database_url))
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)


def recreate_postgres_database(url: str) -> None:
    """Drop and create the PostgreSQL database `url` names: the ingest section needs an empty
    one (no embedding cache). Refuses any other kind of URL."""
    import environ
    import psycopg
    from psycopg import sql

    config = environ.Env.db_url_config(url)
    if config["ENGINE"] != "django.db.backends.postgresql":
        raise ValueError(f"not a PostgreSQL URL: {url}")
    name = sql.Identifier(str(config["NAME"]))
    with psycopg.connect(
        dbname="postgres",
        host=str(config.get("HOST") or "127.0.0.1"),
        port=int(config.get("PORT") or 5432),
        user=str(config.get("USER") or ""),
        password=str(config.get("PASSWORD") or ""),
        autocommit=True,
    ) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(name))
