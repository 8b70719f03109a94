"""Malformed text and FAQ bodies through the API and the whole pipeline: markdown nested
thousands of levels deep, NUL bytes, one enormous line, JSON nested past the parser's depth. Each
is indexed (its sentence found among the stored chunks, in bounded time) or refused with a reason;
none fails the worker, loses text silently or leaves something PostgreSQL cannot store."""

import json
import time

import pytest
from django.conf import settings
from openguru.evaluation.models import GoldenPair
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.milvus_schema import MAX_TEXT_BYTES
from openguru.sources.models import DataSource
from rest_framework.test import APIClient

from tests.sources.ingestion_helpers import (
    add,
    assert_failed_for_a_reason,
    chunks_of,
    detail_of,
    guru,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # a fixture, used by name

SENTENCE = "The aardvark digs for termites at night and sleeps in its burrow all day."
SECONDS = 60  # each body below takes about a second on an idle machine
DEEP_MARKDOWN = {
    # Past the request cap (5 MB) a body is refused before anything is stored, so these stay
    # under it: a list 1,500 levels deep is 2.3 MB, almost all of it indentation.
    "blockquotes": ">" * 100_000 + f" {SENTENCE}\n",
    "spaced-blockquotes": "> " * 50_000 + f"{SENTENCE}\n",
    "nested-lists": "".join("  " * n + "- level\n" for n in range(1_500)) + f"\n{SENTENCE}\n",
    "brackets": "[" * 100_000 + SENTENCE + "]" * 100_000,
    "emphasis": "*" * 100_000 + SENTENCE + "*" * 100_000,
    "headings": "#" * 100_000 + f" {SENTENCE}\n",
    "fences": "```\n" * 50_001 + f"{SENTENCE}\n",
    "html-in-markdown": "<div>" * 100_000 + SENTENCE + "</div>" * 100_000,
}


def _indexed(client: APIClient, guru: Guru, **body: object) -> tuple[dict, str]:
    started = time.monotonic()
    response = add(client, **body)
    assert response.status_code == 201, response.json()
    detail = detail_of(client, response.json()["id"])
    assert time.monotonic() - started < SECONDS
    assert detail["status"] == "SUCCESS", detail
    hits = chunks_of(guru, detail["id"])
    # Nothing cut off silently by the vector store's field size.
    assert all(len(hit.text.encode()) < MAX_TEXT_BYTES for hit in hits)
    return detail, "\n".join(" ".join(hit.text.split()) for hit in hits)


def _every_word_of_the_sentence_in(text: str) -> None:
    # Glued to a hundred thousand brackets, the sentence's first and last words go with them
    # into chunks of their own: each word is kept, not the sentence in one piece.
    missing = [word for word in SENTENCE.split() if word not in text]
    assert not missing, missing


@pytest.mark.parametrize("content", list(DEEP_MARKDOWN.values()), ids=list(DEEP_MARKDOWN))
def test_deeply_nested_markdown_is_indexed_whole(
    admin_client: APIClient, guru: Guru, content: str
) -> None:
    _detail, text = _indexed(admin_client, guru, type="text", title="Burrows", content=content)
    _every_word_of_the_sentence_in(text)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(f"{SENTENCE} " * 60_000, id="words"),  # 4.4 MB, no line break
        pytest.param("x" * 4_000_000 + f" {SENTENCE}", id="one-word"),
        pytest.param(" " * 4_000_000 + SENTENCE, id="blanks"),
    ],
)
def test_one_huge_line_is_indexed_in_bounded_time(
    admin_client: APIClient, guru: Guru, line: str
) -> None:
    _detail, text = _indexed(admin_client, guru, type="text", title="One line", content=line)
    _every_word_of_the_sentence_in(text)


def test_a_body_past_the_request_cap_is_refused_with_a_reason(
    admin_client: APIClient, guru: Guru
) -> None:
    content = "word " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 5 + 1)
    response = add(admin_client, type="text", title="Too big", content=content)
    assert response.status_code == 413, response.content
    assert response.json() == {
        "code": "file_too_large",
        "msg": "The request is larger than the 5 MB the server accepts.",
    }
    assert not DataSource.objects.filter(guru=guru).exists()


@pytest.mark.parametrize("kind", ["text", "faq"])
def test_nul_bytes_in_a_body_are_refused_with_a_reason(
    admin_client: APIClient, guru: Guru, kind: str
) -> None:
    response = add(admin_client, type=kind, content=f"Q: Why dig?\nA: {SENTENCE}\x00\x00")
    assert response.status_code == 400, response.content
    assert response.json()["msg"] == "content: Null characters are not allowed."
    assert not DataSource.objects.filter(guru=guru).exists()


def test_nul_characters_spelled_in_faq_json_are_dropped(
    admin_client: APIClient, guru: Guru
) -> None:
    # "\u0000" passes the API (the body holds no NUL byte) and decodes to NUL: stored as such,
    # it failed the FAQ's golden pairs, and any answer quoting the entry, in PostgreSQL.
    pairs = [{"question": "Why does the aardvark\u0000 dig?", "answer": f"{SENTENCE}\u0000"}]
    content = json.dumps(pairs)
    assert "\x00" not in content
    detail, text = _indexed(admin_client, guru, type="faq", title="Burrows", content=content)
    assert "\x00" not in text and SENTENCE in text
    questions = GoldenPair.objects.filter(expected_source_id=detail["id"])
    assert list(questions.values_list("question", flat=True)) == ["Why does the aardvark dig?"]


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("[" * 100_000 + "]" * 100_000, id="lists"),
        pytest.param('{"a":' * 50_000 + "1" + "}" * 50_000, id="objects"),
    ],
)
def test_faq_json_nested_past_the_parser_fails_with_a_reason(
    admin_client: APIClient, guru: Guru, content: str
) -> None:
    response = add(admin_client, type="faq", title="Deep", content=content)
    assert response.status_code == 201, response.json()
    assert_failed_for_a_reason(detail_of(admin_client, response.json()["id"]), "nests too deeply")
