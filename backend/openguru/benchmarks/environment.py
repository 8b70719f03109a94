"""The settings every bench process runs with: its own SQLite database and Milvus Lite server
under `data/bench/`, the real local embedder, and nothing a developer's `.env` could switch on
behind its back (Firecrawl, a reranker, an LLM for ingestion)."""

import os

from openguru.benchmarks.paths import BenchPaths


def bench_environment(paths: BenchPaths, *, milvus_uri: str) -> dict[str, str]:
    """Variables for the bench process and the servers it starts. Real environment variables
    win over `.env`, so setting them here pins every value the numbers depend on."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",  # DEBUG keeps every SQL query in memory
        "OPENGURU_DATA_DIR": str(paths.state),
        "DATABASE_URL": f"sqlite:///{paths.database}",
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
        "LOG_LEVEL": "WARNING",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }


def setup_django(paths: BenchPaths, *, milvus_uri: str, migrate: bool) -> None:
    """Point this process at the bench settings, then start Django (once, before any model
    import) and bring the database schema up to date."""
    paths.state.mkdir(parents=True, exist_ok=True)
    os.environ.update(bench_environment(paths, milvus_uri=milvus_uri))
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
