from functools import lru_cache

from django.conf import settings

from openguru.providers.vectorstore.base import VectorStore

# milvus: a Milvus server or the embedded Milvus Lite one; memory: in this process only (tests,
# the fast test lane), never shared between the web process and the workers.
VECTOR_STORES = ("milvus", "memory")
# Milvus only: a collection per guru, or one per embedding dimension shared by every guru.
VECTOR_LAYOUTS = ("per_guru", "shared")


@lru_cache(maxsize=1)
def get_vector_store() -> VectorStore:
    if settings.VECTOR_STORE == "memory":
        from openguru.providers.vectorstore.memory import MemoryVectorStore

        return MemoryVectorStore(bm25_analyzer=settings.MILVUS_BM25_ANALYZER)
    from openguru.providers.vectorstore.milvus import MilvusVectorStore

    connection = {
        "uri": settings.MILVUS_URI,
        "token": settings.MILVUS_TOKEN or None,
        "search_timeout_seconds": settings.MILVUS_SEARCH_TIMEOUT_SECONDS,
        "bm25_analyzer": settings.MILVUS_BM25_ANALYZER,
    }
    if settings.VECTOR_LAYOUT == "shared":
        from openguru.providers.vectorstore.milvus_shared import SharedMilvusVectorStore

        return SharedMilvusVectorStore(
            collection_prefix=settings.MILVUS_COLLECTION_PREFIX, **connection
        )
    return MilvusVectorStore(**connection)
