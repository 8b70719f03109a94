"""Inline citation numbers: an LLM's `[context id]` citations renumbered as cited while the
answer streams, so the sources list holds only cited sources, the n-th cited as [n]."""

import pytest
from openguru.answers.engine.citations import CitationStream
from openguru.answers.engine.context import Context

pytestmark = pytest.mark.fast


def contexts(*titles: str) -> list[Context]:
    return [
        Context(
            source_id=i,
            title=title,
            link="",
            type="text",
            relevance=0.5,
        )
        for i, title in enumerate(titles)
    ]


def streamed(stream: CitationStream, deltas: list[str]) -> str:
    return "".join(stream.feed(delta) for delta in deltas) + stream.flush()


def test_citations_are_renumbered_in_the_order_they_are_cited():
    found = contexts("Install", "Deploy", "Config")
    stream = CitationStream(found)
    text = streamed(stream, ["Run pip install [3", "]. It needs Python 3.10 [1", "]. Again [3]."])
    assert text == "Run pip install [1]. It needs Python 3.10 [2]. Again [1]."
    assert [c.title for c in stream.cited] == ["Config", "Install"]


def test_chunks_of_one_page_share_a_number_and_lists_are_split():
    first, second, other = contexts("Install", "Install", "Deploy")  # two sections of one page
    stream = CitationStream([first, second, other])
    assert streamed(stream, ["See [2, 1] and [3]."]) == "See [1] and [2]."
    assert stream.cited == [second, other]


def test_code_links_and_unknown_ids_are_left_alone_or_dropped():
    stream = CitationStream(contexts("Install"))
    deltas = ["Use `x = ", "[1]` or\n```py\nx = [1]\n", "```\n", "[1](https://x.org) and [7] [1]."]
    assert streamed(stream, deltas) == (
        "Use `x = [1]` or\n```py\nx = [1]\n```\n[1](https://x.org) and  [1]."
    )


def test_an_answer_citing_nothing_by_number_lists_every_source_it_read():
    found = contexts("Install", "Deploy")
    stream = CitationStream(found)
    assert streamed(stream, ["See [Install](https://docs.example.org/0)."]).startswith("See [")
    assert stream.cited == found


def test_a_source_with_a_link_is_cited_by_a_number_linked_to_it():
    found = contexts("Install")
    found[0].link = "https://docs.example.org/install"
    stream = CitationStream(found)
    assert streamed(stream, ["Run it [1]."]) == "Run it [[1]](https://docs.example.org/install)."


def test_a_list_of_ids_becomes_adjacent_numbers():
    stream = CitationStream(contexts("Install", "Deploy", "Config"))
    assert streamed(stream, ["Both [3, 1]."]) == "Both [1][2]."
