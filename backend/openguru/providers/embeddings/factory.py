"""Choose the embedder from settings (default: the local all-MiniLM-L6-v2, fully offline)."""

from functools import lru_cache

from django.conf import settings

from openguru.providers.embeddings.base import Embedder

EMBEDDING_PROVIDERS = ("local", "openai", "tei", "fake")


def build_embedder(provider: str, model: str) -> Embedder:
    if provider == "local":
        from openguru.providers.embeddings.local import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(
            model_name=model,
            batch_size=settings.EMBEDDING_BATCH_SIZE,
            precision=settings.EMBEDDING_LOCAL_PRECISION,
            workers=settings.EMBEDDING_LOCAL_WORKERS,
            query_backend=settings.EMBEDDING_LOCAL_QUERY_BACKEND,
            onnx_cache_dir=settings.DATA_DIR / "models",
        )
    if provider == "openai":
        from openguru.providers.embeddings.openai import OpenAIEmbedder

        return OpenAIEmbedder(
            api_key=settings.EMBED_API_KEY or settings.OPENAI_API_KEY,
            base_url=settings.EMBED_API_URL or settings.OPENAI_BASE_URL or None,
            model=model,
            dimension=settings.EMBEDDING_DIMENSION or None,
        )
    if provider == "tei":
        from openguru.providers.embeddings.tei import TEIEmbedder

        return TEIEmbedder(
            url=settings.EMBED_API_URL,
            api_key=settings.EMBED_API_KEY or None,
            model_name=model,
            dimension=settings.EMBEDDING_DIMENSION or None,
        )
    if provider == "fake":
        from openguru.providers.embeddings.fake import FakeEmbedder

        return FakeEmbedder(dimension=settings.EMBEDDING_DIMENSION or 384)
    raise ValueError(f"Unknown EMBEDDING_PROVIDER {provider!r}")


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    return build_embedder(settings.EMBEDDING_PROVIDER, settings.EMBEDDING_MODEL)
