"""One contract for every reranker: scores in [0, 1], best first, each text scored exactly once.

The TEI cases talk HTTP to the loopback server in tests/fakes/tei_server.py, once as TEI answers
by default and once as a server that sends raw cross-encoder logits.
"""

import socket
from collections.abc import Iterator

import pytest
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.rerank.base import Reranker, RerankResult
from openguru.providers.rerank.fake import FakeReranker
from openguru.providers.rerank.tei import TEIReranker

from tests.fakes.tei_server import FakeTEIServer

RERANKER_CASES = [
    pytest.param("tei_reranker", id="tei"),
    pytest.param("tei_reranker_of_logits", id="tei-logits"),
    pytest.param("fake_reranker", id="fake"),
]

QUERY = "How do I install the package with pip?"
TEXTS = [
    "The Eiffel Tower in Paris was completed in 1889.",
    "Use pip to upgrade the package once it is there.",
    "Install the package with pip: run pip install openguru.",
    "Bananas are rich in potassium.",
]
RELEVANT = 2


@pytest.fixture(scope="module")
def tei_server_for_rerank() -> Iterator[FakeTEIServer]:
    with FakeTEIServer() as server:
        yield server


@pytest.fixture(scope="module")
def logits_server() -> Iterator[FakeTEIServer]:
    with FakeTEIServer(raw_logits=True) as server:
        yield server


@pytest.fixture
def tei_reranker(tei_server_for_rerank: FakeTEIServer) -> TEIReranker:
    tei_server_for_rerank.reset()
    return TEIReranker(url=tei_server_for_rerank.url)


@pytest.fixture
def tei_reranker_of_logits(logits_server: FakeTEIServer) -> TEIReranker:
    return TEIReranker(url=logits_server.url)


@pytest.fixture
def fake_reranker() -> FakeReranker:
    return FakeReranker()


@pytest.fixture(params=RERANKER_CASES)
def reranker(request: pytest.FixtureRequest) -> Reranker:
    return request.getfixturevalue(request.param)


# --- The contract --------------------------------------------------------------------------------


def test_it_is_a_reranker(reranker: Reranker) -> None:
    assert isinstance(reranker, Reranker)


def test_scores_are_between_zero_and_one(reranker: Reranker) -> None:
    results = reranker.rerank(QUERY, TEXTS)
    assert all(isinstance(result, RerankResult) for result in results)
    assert all(0.0 <= result.score <= 1.0 for result in results)


def test_results_come_best_first(reranker: Reranker) -> None:
    scores = [result.score for result in reranker.rerank(QUERY, TEXTS)]
    assert scores == sorted(scores, reverse=True)
    assert scores[0] > scores[-1]


def test_every_text_is_scored_exactly_once(reranker: Reranker) -> None:
    results = reranker.rerank(QUERY, TEXTS)
    assert sorted(result.index for result in results) == list(range(len(TEXTS)))


def test_the_relevant_text_ranks_first(reranker: Reranker) -> None:
    results = reranker.rerank(QUERY, TEXTS)
    assert results[0].index == RELEVANT
    assert results[0].score > results[1].score


def test_the_order_of_the_input_does_not_decide(reranker: Reranker) -> None:
    reversed_texts = list(reversed(TEXTS))
    best = reranker.rerank(QUERY, reversed_texts)[0]
    assert reversed_texts[best.index] == TEXTS[RELEVANT]


def test_it_is_deterministic(reranker: Reranker) -> None:
    assert reranker.rerank(QUERY, TEXTS) == reranker.rerank(QUERY, TEXTS)


def test_nothing_to_rerank_gives_nothing(reranker: Reranker) -> None:
    assert reranker.rerank(QUERY, []) == []


# --- TEI specifics -------------------------------------------------------------------------------


def _rerank_requests(server: FakeTEIServer) -> list[dict[str, object]]:
    return [r.body for r in server.requests if r.path == "/rerank"]


def test_tei_asks_for_probabilities(
    tei_reranker: TEIReranker, tei_server_for_rerank: FakeTEIServer
) -> None:
    tei_reranker.rerank(QUERY, TEXTS)
    (body,) = _rerank_requests(tei_server_for_rerank)
    assert body == {"query": QUERY, "texts": TEXTS, "raw_scores": False}


def test_tei_logits_keep_the_ranking_of_probabilities(
    tei_reranker: TEIReranker, tei_reranker_of_logits: TEIReranker
) -> None:
    from_probabilities = tei_reranker.rerank(QUERY, TEXTS)
    from_logits = tei_reranker_of_logits.rerank(QUERY, TEXTS)
    assert [r.index for r in from_logits] == [r.index for r in from_probabilities]
    # The server's logit of a perfect match is 6: the sigmoid of it, not a clamp to 1.
    assert from_logits[0].score == pytest.approx(0.99753, abs=1e-4)


def test_tei_splits_many_texts_into_batches_and_merges_them(
    tei_reranker: TEIReranker, tei_server_for_rerank: FakeTEIServer
) -> None:
    texts = [f"Unrelated note number {n} about gardening" for n in range(70)]
    texts[50] = TEXTS[RELEVANT]
    results = tei_reranker.rerank(QUERY, texts)
    assert [len(body["texts"]) for body in _rerank_requests(tei_server_for_rerank)] == [
        32,
        32,
        6,
    ]
    assert sorted(result.index for result in results) == list(range(70))
    assert results[0].index == 50


def test_tei_accepts_the_full_endpoint_url_and_sends_the_api_key() -> None:
    with FakeTEIServer(api_key="s3cret") as server:
        reranker = TEIReranker(url=f"{server.url}/rerank", api_key="s3cret")
        assert reranker.rerank(QUERY, TEXTS)[0].index == RELEVANT
        assert server.requests[-1].headers["Authorization"] == "Bearer s3cret"


@pytest.mark.parametrize(
    ("status", "error_type", "code"),
    [
        (503, TransientError, ErrorCode.PROVIDER_UNAVAILABLE),
        (502, TransientError, ErrorCode.PROVIDER_UNAVAILABLE),
        (429, TransientError, ErrorCode.PROVIDER_UNAVAILABLE),
        (400, DomainError, ErrorCode.PROVIDER_ERROR),
        (401, DomainError, ErrorCode.PROVIDER_ERROR),
        (413, DomainError, ErrorCode.PROVIDER_ERROR),
    ],
)
def test_tei_http_errors_map_to_domain_errors(
    tei_reranker: TEIReranker,
    tei_server_for_rerank: FakeTEIServer,
    status: int,
    error_type: type[DomainError],
    code: ErrorCode,
) -> None:
    tei_server_for_rerank.fail_next(1, status=status)
    with pytest.raises(DomainError) as raised:
        tei_reranker.rerank(QUERY, TEXTS)
    assert type(raised.value) is error_type
    assert raised.value.code == code
    assert tei_reranker.rerank(QUERY, TEXTS)[0].index == RELEVANT


@pytest.mark.parametrize(
    "body",
    [
        {"error": "not a list"},
        [{"index": 0, "score": 0.5}],  # texts left out
        [
            {"index": 0, "score": 0.5},
            {"index": 0, "score": 0.4},
            {"index": 1, "score": 0.1},
            {"index": 2, "score": 0.1},
        ],  # one text twice, another never
        [{"index": i, "score": 0.5} for i in range(3)] + [{"index": 9, "score": 0.1}],
        [{"index": i} for i in range(4)],
        [{"index": i, "score": "high"} for i in range(4)],
    ],
)
def test_tei_malformed_answers_are_provider_errors(
    tei_reranker: TEIReranker, tei_server_for_rerank: FakeTEIServer, body: object
) -> None:
    tei_server_for_rerank.fail_next(1, status=200, body=body)
    with pytest.raises(DomainError) as raised:
        tei_reranker.rerank(QUERY, TEXTS)
    assert type(raised.value) is DomainError
    assert raised.value.code == ErrorCode.PROVIDER_ERROR


def test_tei_unreachable_server_is_transient() -> None:
    with socket.socket() as probe:  # a port nobody listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(TransientError) as raised:
        TEIReranker(url=f"http://127.0.0.1:{port}").rerank(QUERY, TEXTS)
    assert raised.value.code == ErrorCode.PROVIDER_UNAVAILABLE


def test_tei_timeout_is_transient() -> None:
    with FakeTEIServer() as server:
        server.delay(2.0)
        with pytest.raises(TransientError) as raised:
            TEIReranker(url=server.url, timeout=0.2).rerank(QUERY, TEXTS)
    assert raised.value.code == ErrorCode.PROVIDER_UNAVAILABLE
