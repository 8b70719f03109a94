"""OpenAIEmbedder against the loopback OpenAI-compatible server: real SDK, real HTTP, no database.

The server computes its vectors with `deterministic_vector`; comparing what the client returns
with that function checks the wire (the SDK asks for base64-packed float32 by default).
"""

import math
from collections.abc import Iterator

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.embeddings.base import Embedder
from openguru.providers.embeddings.openai import OpenAIEmbedder

from tests.fakes.fake_content import deterministic_vector
from tests.fakes.openai_server import FakeOpenAIServer, free_port

KEY = "sk-test-embeddings"


@pytest.fixture(scope="module")
def module_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(api_key=KEY, dimension=48) as server:
        yield server


@pytest.fixture
def server(module_server: FakeOpenAIServer) -> FakeOpenAIServer:
    module_server.reset()
    return module_server


def embedder(server: FakeOpenAIServer, model: str = "local-embed", **options: object) -> Embedder:
    settings: dict[str, object] = {"max_retries": 0, **options}
    return OpenAIEmbedder(
        api_key=KEY,
        base_url=server.base_url,
        model=model,
        **settings,  # type: ignore[arg-type]
    )


def embedding_inputs(server: FakeOpenAIServer) -> list[list[str]]:
    return [r.body["input"] for r in server.requests if r.path == "/v1/embeddings"]


def test_it_is_an_embedder(server: FakeOpenAIServer) -> None:
    model = embedder(server)
    assert isinstance(model, Embedder)
    assert model.model_name == "local-embed"
    assert model.max_input_tokens == 8191


def test_vectors_are_the_servers_vectors_in_order(server: FakeOpenAIServer) -> None:
    texts = ["install with pip", "configure milvus", "ask the guru"]
    vectors = embedder(server).embed_documents(texts)
    for text, vector in zip(texts, vectors, strict=True):
        assert vector == pytest.approx(deterministic_vector(text, 48), abs=1e-6)
        assert math.sqrt(sum(v * v for v in vector)) == pytest.approx(1.0, abs=1e-5)
    assert embedding_inputs(server) == [texts]
    assert server.requests[0].body["encoding_format"] == "base64"
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"


def test_it_is_deterministic_and_tells_texts_apart(server: FakeOpenAIServer) -> None:
    model = embedder(server)
    first = model.embed_query("How do I install it?")
    assert model.embed_query("How do I install it?") == first
    assert model.embed_documents(["How do I install it?"])[0] == first
    assert model.embed_query("The Eiffel Tower is in Paris.") != first


def test_documents_go_in_batches_and_keep_their_order(server: FakeOpenAIServer) -> None:
    texts = [f"note {n} about topic {n * 7}" for n in range(7)]
    vectors = embedder(server, batch_size=3).embed_documents(texts)
    assert [len(batch) for batch in embedding_inputs(server)] == [3, 3, 1]
    assert len(vectors) == 7
    for text, vector in zip(texts, vectors, strict=True):
        assert vector == pytest.approx(deterministic_vector(text, 48), abs=1e-6)
    assert embedder(server).embed_documents([]) == []


def test_an_unknown_model_is_measured_once(server: FakeOpenAIServer) -> None:
    model = embedder(server)
    assert model.dimension == 48
    assert model.dimension == 48
    assert len(embedding_inputs(server)) == 1
    model.embed_query("x")
    assert len(embedding_inputs(server)) == 2  # no second probe


def test_a_first_batch_tells_the_dimension_without_a_probe(
    server: FakeOpenAIServer,
) -> None:
    model = embedder(server)
    model.embed_documents(["a text"])
    assert model.dimension == 48
    assert embedding_inputs(server) == [["a text"]]


def test_known_models_need_no_request_for_their_dimension(
    server: FakeOpenAIServer,
) -> None:
    assert embedder(server, model="text-embedding-3-small").dimension == 1536
    assert embedder(server, model="text-embedding-3-large").dimension == 3072
    assert embedder(server, model="text-embedding-ada-002").dimension == 1536
    assert server.call_count == 0
    assert len(embedder(server, model="text-embedding-3-large").embed_query("q")) == 3072


def test_a_shortened_text_embedding_3_asks_for_its_dimension(
    server: FakeOpenAIServer,
) -> None:
    model = embedder(server, model="text-embedding-3-small", dimension=256)
    assert len(model.embed_query("q")) == 256
    assert server.requests[0].body["dimensions"] == 256


def test_other_models_are_not_sent_dimensions_and_a_mismatch_is_refused(
    server: FakeOpenAIServer,
) -> None:
    model = embedder(server, dimension=32)  # the server answers 48
    assert model.dimension == 32
    with pytest.raises(DomainError) as raised:
        model.embed_query("q")
    assert raised.value.code == ErrorCode.PROVIDER_ERROR
    assert "dimensions" not in server.requests[0].body


def test_empty_and_overlong_texts_are_made_acceptable(server: FakeOpenAIServer) -> None:
    model = embedder(server)
    vectors = model.embed_documents(["", "word " * 40_000])
    assert len(vectors) == 2
    sent = embedding_inputs(server)[0]
    assert sent[0].strip() == ""
    assert 0 < len(sent[1]) <= model.max_input_tokens * 3


def test_count_tokens_errs_on_the_high_side(server: FakeOpenAIServer) -> None:
    model = embedder(server)
    assert model.count_tokens("") > 0
    english = "Install the package with pip in a fresh virtual environment. " * 20
    assert model.count_tokens(english) >= len(english) / 4  # ~4 characters a token
    assert model.count_tokens("a" * 30) < model.count_tokens("a" * 300)


@pytest.mark.parametrize("status", [429, 500, 503])
def test_overload_is_a_transient_error(server: FakeOpenAIServer, status: int) -> None:
    server.fail_next(1, status=status)
    with pytest.raises(TransientError) as raised:
        embedder(server).embed_documents(["a"])
    assert raised.value.code == ErrorCode.PROVIDER_UNAVAILABLE


def test_a_bad_request_is_a_provider_error(server: FakeOpenAIServer) -> None:
    server.fail_next(1, status=400)
    with pytest.raises(DomainError) as raised:
        embedder(server).embed_query("a")
    assert not isinstance(raised.value, TransientError)
    assert raised.value.code == ErrorCode.PROVIDER_ERROR


def test_retries_ride_out_one_overload(server: FakeOpenAIServer) -> None:
    server.fail_next(1, status=503)
    assert len(embedder(server, max_retries=1).embed_query("a")) == 48
    assert server.call_count == 2


def test_an_unreachable_server_is_a_transient_error() -> None:
    model = OpenAIEmbedder(
        api_key=KEY,
        base_url=f"http://127.0.0.1:{free_port()}/v1",
        model="m",
        max_retries=0,
    )
    with pytest.raises(TransientError):
        model.embed_query("a")
    assert KEY not in repr(model)
