"""TextLoader and FaqLoader: bodies stored on the source row."""

import json
from typing import Any

import pytest
from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import Document, LoadRequest
from openguru.sources.loaders.github import GitHubLoader
from openguru.sources.loaders.pdf import PdfLoader
from openguru.sources.loaders.registry import loader_for
from openguru.sources.loaders.text import FaqLoader, TextLoader
from openguru.sources.loaders.youtube_collection import YouTubeSourceLoader
from pytest_django.fixtures import Settings

URL = "https://example.com/help/faq"


def load_text(content: str, **request: Any) -> list[Document]:
    options = {"source_id": 3, "url": URL, "content": content, **request}
    result = TextLoader().load(LoadRequest(**options), on_progress=lambda _p: None)
    return list(result.documents)


def load_faq(content: str, **request: Any) -> list[Document]:
    options = {"source_id": 4, "url": URL, "content": content, **request}
    result = FaqLoader().load(LoadRequest(**options), on_progress=lambda _p: None)
    return list(result.documents)


def test_text_is_one_markdown_document() -> None:
    body = "# Refund policy\n\nRefunds take 5 days.\n"

    documents = load_text(body, title="Policies")

    assert documents == [Document(title="Policies", link=URL, text=body, format="markdown")]


def test_text_title_falls_back_to_its_first_heading() -> None:
    documents = load_text("Intro line.\n\n## Shipping times ##\n\nTwo days.")

    assert documents[0].title == "Shipping times"


def test_private_text_has_no_link() -> None:
    assert load_text("Internal notes.", private=True)[0].link == ""


def test_empty_text_has_nothing_to_index() -> None:
    with pytest.raises(DomainError) as error:
        load_text("  \n ")

    assert error.value.code == ErrorCode.NOTHING_TO_INDEX


def test_text_over_the_limit_is_refused(settings: Settings) -> None:
    settings.SOURCE_TEXT_MAX_BYTES = 10

    with pytest.raises(DomainError) as error:
        load_text("x" * 11)

    assert error.value.code == ErrorCode.FILE_TOO_LARGE


def test_faq_from_json_keeps_question_and_answer_together() -> None:
    content = json.dumps(
        [
            {
                "question": "How do I reset my password?",
                "answer": "Use the 'Forgot' link.",
            },
            {"question": "Do you ship abroad?", "answer": "Yes, to 40 countries."},
        ]
    )

    documents = load_faq(content)

    assert [doc.format for doc in documents] == ["faq", "faq"]
    assert documents[0].title == "How do I reset my password?"
    assert documents[0].text == "Q: How do I reset my password?\nA: Use the 'Forgot' link."
    assert documents[1].link == f"{URL}#do-you-ship-abroad"


def test_faq_from_q_and_a_text_with_multiline_answers() -> None:
    content = (
        "Q: What are your hours?\n"
        "A: Monday to Friday.\n"
        "Weekends by appointment.\n"
        "\n"
        "Question: Where are you?\n"
        "Answer: Berlin.\n"
    )

    documents = load_faq(content)

    assert [doc.title for doc in documents] == [
        "What are your hours?",
        "Where are you?",
    ]
    assert documents[0].text.endswith("A: Monday to Friday.\nWeekends by appointment.")
    assert documents[1].text == "Q: Where are you?\nA: Berlin."


def test_repeated_questions_get_distinct_links() -> None:
    content = "Q: Price?\nA: 5 EUR.\nQ: Price?\nA: 10 EUR for teams."

    links = [doc.link for doc in load_faq(content)]

    assert links == [f"{URL}#price", f"{URL}#price-1"]


@pytest.mark.parametrize(
    "content",
    [
        "[{",  # broken JSON
        '{"question": "A?", "answer": "B"}',  # not a list
        '[{"question": "A?"}]',  # no answer
        '[{"question": "", "answer": "B"}]',
        "Just some prose without any questions.",
        "Q: Only a question?",
        "Q: First?\nQ: Second?\nA: One answer.",
        "Preamble\nQ: Hours?\nA: Nine to five.",
    ],
)
def test_badly_formatted_faq_is_invalid_input(content: str) -> None:
    with pytest.raises(DomainError) as error:
        load_faq(content)

    assert error.value.code == ErrorCode.INVALID_INPUT


@pytest.mark.parametrize(
    ("source_type", "loader_class"),
    [
        ("text", TextLoader),
        ("faq", FaqLoader),
        ("pdf", PdfLoader),
        ("youtube", YouTubeSourceLoader),
        ("github_repo", GitHubLoader),
    ],
)
def test_registry_maps_source_types(source_type: str, loader_class: type) -> None:
    assert isinstance(loader_for(source_type), loader_class)


def test_registry_refuses_unknown_types() -> None:
    with pytest.raises(DomainError) as error:
        loader_for("fax")

    assert error.value.code == ErrorCode.INVALID_INPUT
