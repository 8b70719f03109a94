"""The cases the contract files run.

Vector stores: Milvus Lite on the session's loopback server in both layouts (a collection per
guru, and one shared by every guru), and the memory store, which needs none and so runs in the
fast lane. LLMs: OpenAI-compatible and Gemini on loopback servers, the
fake, and a fallback whose primary is down. Another implementation joins by adding a fixture and
a case here."""

from collections.abc import Iterator

import pytest
from openguru.providers.llm.fake import FakeLLM
from openguru.providers.llm.fallback import FallbackLLM
from openguru.providers.vectorstore.base import VectorStore
from openguru.providers.vectorstore.memory import MemoryVectorStore
from openguru.providers.vectorstore.milvus import MilvusVectorStore
from openguru.providers.vectorstore.milvus_shared import SharedMilvusVectorStore

from tests.contracts.llm_cases import GEMINI_KEY, OPENAI_KEY, Case, gemini_llm, openai_llm
from tests.contracts.vectorstore_cases import DIM, unique_collection_name
from tests.fakes.gemini_server import FakeGeminiServer
from tests.fakes.openai_server import FakeOpenAIServer

STORE_CASES = [
    pytest.param("milvus_store", id="milvus"),
    pytest.param("milvus_shared_store", id="milvus-shared"),
    pytest.param("memory_store", id="memory", marks=pytest.mark.fast),
]


@pytest.fixture(scope="module")
def milvus_store(milvus_server: str) -> Iterator[MilvusVectorStore]:
    store = MilvusVectorStore(uri=milvus_server, bm25_analyzer="english")
    yield store
    store.close()


@pytest.fixture(scope="module")
def milvus_shared_store(milvus_server: str) -> Iterator[SharedMilvusVectorStore]:
    store = SharedMilvusVectorStore(
        uri=milvus_server, bm25_analyzer="english", collection_prefix="contract_"
    )
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


# --- LLMs ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def openai_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(api_key=OPENAI_KEY) as server:
        yield server


@pytest.fixture(scope="module")
def down_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(api_key=OPENAI_KEY) as server:
        yield server


@pytest.fixture(scope="module")
def gemini_server() -> Iterator[FakeGeminiServer]:
    with FakeGeminiServer(api_key=GEMINI_KEY) as server:
        yield server


@pytest.fixture
def fresh_llm_servers(
    openai_server: FakeOpenAIServer,
    down_server: FakeOpenAIServer,
    gemini_server: FakeGeminiServer,
) -> None:
    for server in (openai_server, down_server, gemini_server):
        server.reset()
    down_server.fail_all(503)


@pytest.fixture(params=["openai", "gemini", "fake", "fallback"])
def llm_case(
    request: pytest.FixtureRequest,
    openai_server: FakeOpenAIServer,
    down_server: FakeOpenAIServer,
    gemini_server: FakeGeminiServer,
) -> Case:
    if request.param == "openai":
        return Case(openai_llm(openai_server), openai_server, events_to_first_token=2)
    if request.param == "gemini":
        return Case(gemini_llm(gemini_server), gemini_server)
    if request.param == "fake":
        return Case(FakeLLM(), None)
    fallback = FallbackLLM(
        primary=openai_llm(down_server, model="primary-model"),
        fallback=openai_llm(openai_server, model="fallback-model"),
    )
    return Case(fallback, openai_server, events_to_first_token=2)
