"""One contract for every embedder: what indexing and retrieval rely on, whichever is configured.

The local case runs the real all-MiniLM-L6-v2 (weights from its package, loaded once per run);
the TEI case talks HTTP to the loopback server in tests/fakes/tei_server.py.
"""

import math
import socket
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.embeddings.base import Embedder
from openguru.providers.embeddings.fake import FakeEmbedder
from openguru.providers.embeddings.local import SentenceTransformerEmbedder
from openguru.providers.embeddings.openai import OpenAIEmbedder
from openguru.providers.embeddings.tei import TEIEmbedder

from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.tei_server import FakeTEIServer


@dataclass(frozen=True)
class EmbedderCase:
    fixture: str  # name of a fixture below that returns the embedder
    normalized: bool = True  # promises unit vectors
    symmetric: bool = True  # embed_query(t) equals embed_documents([t])[0]...
    agreement: float = 0.9999  # ...to this cosine (int8 questions: nearly, not to the bit)


EMBEDDER_CASES = [
    pytest.param(EmbedderCase("local_embedder"), id="local"),
    pytest.param(EmbedderCase("local_onnx_embedder"), id="local-onnx-queries"),
    pytest.param(
        EmbedderCase("local_onnx_int8_embedder", agreement=0.98), id="local-onnx-int8-queries"
    ),
    pytest.param(EmbedderCase("tei_embedder"), id="tei"),
    pytest.param(EmbedderCase("fake_embedder"), id="fake"),
    pytest.param(EmbedderCase("openai_embedder"), id="openai"),
]

QUERY = "How do I install the package with pip?"
MATCHING_DOCUMENT = "Install the package with pip: run pip install openguru in a virtualenv."
UNRELATED_DOCUMENT = "The Eiffel Tower in Paris was completed in 1889 for the World's Fair."
_TOPICS = [
    "milvus",
    "celery",
    "django",
    "pdf",
    "youtube",
    "github",
    "crawler",
    "answers",
]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def _numbered_texts(count: int) -> list[str]:
    return [
        f"Note {n} explains {_TOPICS[n % len(_TOPICS)]} setup step {n * 7} in detail"
        for n in range(count)
    ]


# --- Fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def local_embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


@pytest.fixture(scope="session")
def onnx_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for both ONNX cases: the int8 graph is quantized from the float one there."""
    return tmp_path_factory.mktemp("onnx")


@pytest.fixture(scope="session")
def local_onnx_embedder(onnx_cache: Path) -> SentenceTransformerEmbedder:
    embedder = SentenceTransformerEmbedder(query_backend="onnx", onnx_cache_dir=onnx_cache)
    assert embedder.query_backend == "onnx"  # exported, not fallen back to torch
    return embedder


@pytest.fixture(scope="session")
def local_onnx_int8_embedder(onnx_cache: Path) -> SentenceTransformerEmbedder:
    embedder = SentenceTransformerEmbedder(query_backend="onnx-int8", onnx_cache_dir=onnx_cache)
    assert embedder.query_backend == "onnx-int8"  # quantized, not fallen back to torch
    return embedder


@pytest.fixture(scope="module")
def tei_server_for_embeddings() -> Iterator[FakeTEIServer]:
    with FakeTEIServer(dimension=384, max_input_length=512) as server:
        yield server


@pytest.fixture
def tei_embedder(tei_server_for_embeddings: FakeTEIServer) -> TEIEmbedder:
    tei_server_for_embeddings.reset()
    return TEIEmbedder(url=tei_server_for_embeddings.url, model_name="fake/tei")


@pytest.fixture(scope="module")
def openai_server_for_embeddings() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(dimension=384) as server:
        yield server


@pytest.fixture
def openai_embedder(openai_server_for_embeddings: FakeOpenAIServer) -> OpenAIEmbedder:
    server = openai_server_for_embeddings
    return OpenAIEmbedder(api_key="k", base_url=f"{server.origin}/v1", model="fake-embedding")


@pytest.fixture
def fake_embedder() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture(params=EMBEDDER_CASES)
def case(request: pytest.FixtureRequest) -> EmbedderCase:
    return request.param


@pytest.fixture
def embedder(case: EmbedderCase, request: pytest.FixtureRequest) -> Embedder:
    return request.getfixturevalue(case.fixture)


# --- The contract --------------------------------------------------------------------------------


def test_it_is_an_embedder_with_a_name(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    assert isinstance(embedder.model_name, str) and embedder.model_name


def test_dimension_matches_the_vectors(embedder: Embedder) -> None:
    assert embedder.dimension > 0
    assert len(embedder.embed_query(QUERY)) == embedder.dimension
    documents = embedder.embed_documents([MATCHING_DOCUMENT, UNRELATED_DOCUMENT])
    assert [len(vector) for vector in documents] == [embedder.dimension] * 2


def test_embed_documents_keeps_count_and_order_across_batches(
    embedder: Embedder,
) -> None:
    texts = _numbered_texts(40)  # more than one batch of 32
    vectors = embedder.embed_documents(texts)
    assert len(vectors) == len(texts)
    for position in (0, 17, 31, 32, 39):
        alone = embedder.embed_documents([texts[position]])[0]
        assert _cosine(vectors[position], alone) > 0.9999
        assert _cosine(vectors[position], vectors[position - 1]) < 0.9999


def test_embed_documents_of_nothing_is_nothing(embedder: Embedder) -> None:
    assert embedder.embed_documents([]) == []


def test_vectors_are_unit_length(case: EmbedderCase, embedder: Embedder) -> None:
    if not case.normalized:
        pytest.skip("this embedder does not promise unit vectors")
    vectors = [
        *embedder.embed_documents([MATCHING_DOCUMENT, "x"]),
        embedder.embed_query(QUERY),
    ]
    for vector in vectors:
        assert math.sqrt(sum(value * value for value in vector)) == pytest.approx(1.0, abs=1e-4)


def test_it_is_deterministic(embedder: Embedder) -> None:
    first = embedder.embed_documents([MATCHING_DOCUMENT, UNRELATED_DOCUMENT])
    second = embedder.embed_documents([MATCHING_DOCUMENT, UNRELATED_DOCUMENT])
    for a, b in zip(first, second, strict=True):
        assert a == pytest.approx(b, abs=1e-5)
    assert embedder.embed_query(QUERY) == pytest.approx(embedder.embed_query(QUERY), abs=1e-5)


def test_a_query_is_closer_to_its_answer_than_to_an_unrelated_text(
    embedder: Embedder,
) -> None:
    query = embedder.embed_query(QUERY)
    matching, unrelated = embedder.embed_documents([MATCHING_DOCUMENT, UNRELATED_DOCUMENT])
    assert _cosine(query, matching) > _cosine(query, unrelated) + 0.1


def test_query_and_document_embeddings_agree(case: EmbedderCase, embedder: Embedder) -> None:
    if not case.symmetric:
        pytest.skip("this embedder embeds queries differently from documents")
    as_document = embedder.embed_documents([QUERY])[0]
    assert _cosine(embedder.embed_query(QUERY), as_document) > case.agreement


def test_count_tokens_is_positive_and_grows_with_the_text(embedder: Embedder) -> None:
    short = embedder.count_tokens("install the package")
    longer = embedder.count_tokens("install the package " * 10)
    longest = embedder.count_tokens("install the package " * 100)
    assert 0 < short < longer < longest


def test_one_instance_can_be_shared_by_threads(embedder: Embedder) -> None:
    texts = _numbered_texts(12)
    expected = embedder.embed_documents(texts)
    expected_counts = [embedder.count_tokens(text) for text in texts]

    def embed_and_count(position: int) -> tuple[list[float], int]:
        text = texts[position]
        return embedder.embed_documents([text, QUERY])[0], embedder.count_tokens(text)

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(embed_and_count, range(len(texts))))
    for position, (vector, count) in enumerate(answers):
        assert _cosine(vector, expected[position]) > 0.9999
        assert count == expected_counts[position]


def test_max_input_tokens_is_positive(embedder: Embedder) -> None:
    assert isinstance(embedder.max_input_tokens, int)
    assert embedder.max_input_tokens > 0


# --- The local model -----------------------------------------------------------------------------


def test_local_model_is_the_bundled_minilm(
    local_embedder: SentenceTransformerEmbedder,
) -> None:
    assert local_embedder.dimension == 384
    assert local_embedder.max_input_tokens == 256
    # WordPiece: special tokens are not counted, a known word is one token.
    assert local_embedder.count_tokens("hello world") == 2
    # Counting must see past the window, or chunking could not tell a chunk is too long.
    assert local_embedder.count_tokens("word " * 1000) == 1000


def test_local_model_that_is_no_directory_is_not_configured() -> None:
    with pytest.raises(DomainError) as raised:
        SentenceTransformerEmbedder(model_name="no-such-model-directory")
    assert raised.value.code == ErrorCode.NOT_CONFIGURED


# --- TEI specifics -------------------------------------------------------------------------------


def _embed_requests(server: FakeTEIServer) -> list[list[str]]:
    return [r.body["inputs"] for r in server.requests if r.path == "/embed"]


def test_tei_sends_batches_of_32_and_asks_to_truncate(
    tei_server_for_embeddings: FakeTEIServer,
) -> None:
    server = tei_server_for_embeddings
    server.reset()
    embedder = TEIEmbedder(url=server.url, model_name="m", dimension=384)
    texts = [*_numbered_texts(69), "word " * 2000]  # longer than the server's 512 window
    assert len(embedder.embed_documents(texts)) == 70
    assert [len(batch) for batch in _embed_requests(server)] == [32, 32, 6]
    assert all(r.body["truncate"] is True for r in server.requests)


def test_tei_probes_the_dimension_once() -> None:
    with FakeTEIServer(dimension=64) as server:
        embedder = TEIEmbedder(url=server.url, model_name="m")
        assert embedder.dimension == 64
        assert embedder.dimension == 64
        assert len(_embed_requests(server)) == 1


def test_tei_given_dimension_needs_no_request_and_is_enforced() -> None:
    with FakeTEIServer(dimension=64) as server:
        embedder = TEIEmbedder(url=server.url, model_name="m", dimension=128)
        assert embedder.dimension == 128
        assert server.requests == []
        with pytest.raises(DomainError) as raised:
            embedder.embed_query(QUERY)
    assert raised.value.code == ErrorCode.PROVIDER_ERROR


def test_tei_window_comes_from_info_when_the_server_has_it() -> None:
    with FakeTEIServer(max_input_length=300) as server:
        assert TEIEmbedder(url=server.url, model_name="m").max_input_tokens == 300
    with FakeTEIServer(info_enabled=False) as server:
        assert TEIEmbedder(url=server.url, model_name="m").max_input_tokens == 512


def test_tei_accepts_the_full_endpoint_url_and_sends_the_api_key() -> None:
    with FakeTEIServer(api_key="s3cret") as server:
        embedder = TEIEmbedder(url=f"{server.url}/embed", api_key="s3cret", model_name="m")
        assert len(embedder.embed_query(QUERY)) == 384
        assert server.requests[-1].headers["Authorization"] == "Bearer s3cret"


def test_tei_wrong_api_key_is_a_provider_error_not_a_retry() -> None:
    with FakeTEIServer(api_key="s3cret") as server:
        embedder = TEIEmbedder(url=server.url, api_key="wrong", model_name="m")
        with pytest.raises(DomainError) as raised:
            embedder.embed_query(QUERY)
    assert type(raised.value) is DomainError
    assert raised.value.code == ErrorCode.PROVIDER_ERROR


@pytest.mark.parametrize(
    ("status", "error_type", "code"),
    [
        (503, TransientError, ErrorCode.PROVIDER_UNAVAILABLE),
        (500, TransientError, ErrorCode.PROVIDER_UNAVAILABLE),
        (429, TransientError, ErrorCode.PROVIDER_UNAVAILABLE),
        (400, DomainError, ErrorCode.PROVIDER_ERROR),
        (413, DomainError, ErrorCode.PROVIDER_ERROR),
        (422, DomainError, ErrorCode.PROVIDER_ERROR),
    ],
)
def test_tei_http_errors_map_to_domain_errors(
    tei_embedder: TEIEmbedder,
    tei_server_for_embeddings: FakeTEIServer,
    status: int,
    error_type: type[DomainError],
    code: ErrorCode,
) -> None:
    tei_server_for_embeddings.fail_next(1, status=status)
    with pytest.raises(DomainError) as raised:
        tei_embedder.embed_documents([MATCHING_DOCUMENT])
    assert type(raised.value) is error_type
    assert raised.value.code == code
    # The failure was one answer, not a broken client: the next call succeeds.
    assert len(tei_embedder.embed_documents([MATCHING_DOCUMENT])) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"error": "not a list"},
        [[0.5, 0.5]],
        [["a", "b"], [1.0]],
        [[0.0, 0.0], [1.0, 0.0]],
    ],
)
def test_tei_malformed_answers_are_provider_errors(
    tei_embedder: TEIEmbedder, tei_server_for_embeddings: FakeTEIServer, body: object
) -> None:
    tei_server_for_embeddings.fail_next(1, status=200, body=body)
    with pytest.raises(DomainError) as raised:
        tei_embedder.embed_documents([MATCHING_DOCUMENT, UNRELATED_DOCUMENT])
    assert type(raised.value) is DomainError
    assert raised.value.code == ErrorCode.PROVIDER_ERROR


def test_tei_unreachable_server_is_transient() -> None:
    with socket.socket() as probe:  # a port nobody listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    embedder = TEIEmbedder(url=f"http://127.0.0.1:{port}", model_name="m", dimension=384)
    with pytest.raises(TransientError) as raised:
        embedder.embed_query(QUERY)
    assert raised.value.code == ErrorCode.PROVIDER_UNAVAILABLE


def test_tei_timeout_is_transient() -> None:
    with FakeTEIServer() as server:
        server.delay(2.0)
        embedder = TEIEmbedder(url=server.url, model_name="m", dimension=384, timeout=0.2)
        with pytest.raises(TransientError) as raised:
            embedder.embed_query(QUERY)
    assert raised.value.code == ErrorCode.PROVIDER_UNAVAILABLE
