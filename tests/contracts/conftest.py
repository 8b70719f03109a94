"""The vector-store cases every contract file runs: Milvus Lite on the session's loopback server,
and the memory store, which needs none and so runs in the fast lane. Another implementation joins
by adding a fixture and a case here."""

from collections.abc import Iterator

import pytest
from openguru.providers.vectorstore.base import VectorStore
from openguru.providers.vectorstore.memory import MemoryVectorStore
from openguru.providers.vectorstore.milvus import MilvusVectorStore

from tests.contracts.vectorstore_cases import DIM, unique_collection_name

STORE_CASES = [
    pytest.param("milvus_store", id="milvus"),
    pytest.param("memory_store", id="memory", marks=pytest.mark.fast),
]


@pytest.fixture(scope="module")
def milvus_store(milvus_server: str) -> Iterator[MilvusVectorStore]:
    store = MilvusVectorStore(uri=milvus_server, bm25_analyzer="english")
    yield store
    store.close()


@pytest.fixture(scope="module")
def memory_store() -> MemoryVectorStore:
    return MemoryVectorStore(bm25_analyzer="english")


@pytest.fixture(params=STORE_CASES)
def store(request: pytest.FixtureRequest) -> VectorStore:
    return request.getfixturevalue(request.param)


@pytest.fixture
def collection(store: VectorStore) -> Iterator[str]:
    """A fresh, empty collection, dropped after the test."""
    name = unique_collection_name()
    store.create_collection(name, dimension=DIM)
    yield name
    store.drop_collection(name)
