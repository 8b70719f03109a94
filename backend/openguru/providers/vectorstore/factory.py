from functools import lru_cache

from django.conf import settings

from openguru.providers.vectorstore.base import VectorStore


@lru_cache(maxsize=1)
def get_vector_store() -> VectorStore:
    from openguru.providers.vectorstore.milvus import MilvusVectorStore

    return MilvusVectorStore(
        uri=settings.MILVUS_URI,
        token=settings.MILVUS_TOKEN or None,
        search_timeout_seconds=settings.MILVUS_SEARCH_TIMEOUT_SECONDS,
        bm25_analyzer=settings.MILVUS_BM25_ANALYZER,
    )
