"""Properties of the extractive answer (no LLM): whatever the question and the retrieved
passages, it never fails, quotes at most `max_sentences` sentences, and every quoted sentence
and code block is the sources' own words, cited to the context it came from."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openguru.answers.engine.citations import citation
from openguru.answers.engine.context import Context
from openguru.answers.engine.extractive import EXTRACTED_LABEL, extracted_quotes, extractive_answer
from openguru.sources.loaders.line_joining import lines_joined

from tests.fuzz.strategies import code, fuzz, markdown, prose

HEADINGS = st.sampled_from(["", "Guide", "Guide > Install", "Guide > Install > From source"])


def _example(intro: str, snippet: str, language: str) -> str:
    return f"{intro}:\n\n```{language}\n{snippet}\n```\n"


@st.composite
def context_text(draw: st.DrawFn) -> str:
    heading = draw(HEADINGS)
    body = draw(
        st.one_of(
            prose(max_words=40),
            markdown(max_lines=12),
            code(max_lines=12),
            st.builds(
                _example,
                prose(max_words=15),
                code(max_lines=8),
                st.sampled_from(["", "python", "bash", "a b"]),
            ),
        )
    )
    return f"{heading}\n\n{body}" if heading else body


@st.composite
def contexts(draw: st.DrawFn) -> list[Context]:
    found = []
    for number in range(draw(st.integers(min_value=0, max_value=4))):
        parts = draw(st.lists(context_text(), min_size=1, max_size=3))
        found.append(
            Context(
                source_id=number,
                title=draw(
                    st.sampled_from(["Guide", "A [tricky] title", "x" * 300])
                ),  # never empty
                link=draw(st.sampled_from(["", "https://docs.example.org/g.html#install"])),
                type="text",
                relevance=draw(st.floats(min_value=0, max_value=1)),
                parts=[(float(i), text) for i, text in enumerate(parts)],
                headings={"Guide", "Guide > Install", "Guide > Install > From source"},
            )
        )
    return found


QUESTIONS = st.one_of(prose(max_words=20), st.sampled_from(["", "?", "how do I install it"]))


@fuzz(40)
@given(QUESTIONS, contexts(), st.integers(min_value=0, max_value=6))
def test_every_quote_is_the_sources_own_words(
    question: str, found: list[Context], max_sentences: int
) -> None:
    quotes = extracted_quotes(question=question, contexts=found, max_sentences=max_sentences)
    assert len(quotes) <= max_sentences
    for quote in quotes:
        assert quote.context in found
        # Wrapped lines are read joined (a PDF's, hard-wrapped text's): the words are the same.
        body = lines_joined(quote.context.body_text)
        for passage in quote.passages:
            assert passage.sentence.strip()
            assert passage.sentence in body
        if quote.code is not None:
            assert quote.code.text in quote.context.body_text


@fuzz(40)
@given(QUESTIONS, contexts())
def test_the_rendered_answer_quotes_only_the_sources(question: str, found: list[Context]) -> None:
    answer = extractive_answer(question=question, contexts=found)
    assert answer.startswith(EXTRACTED_LABEL)
    quoted = [line[2:] for line in answer.splitlines() if line.startswith("> ")]
    quotes = extracted_quotes(question=question, contexts=found)
    assert quoted == [f"{q.sentences} {citation(q.number, q.context.link)}" for q in quotes]
    # numbered as first cited: 1, then at most one more than any before it
    numbers = [quote.number for quote in quotes]
    assert all(n <= max(numbers[:i], default=0) + 1 for i, n in enumerate(numbers))


@pytest.mark.timeout(60)  # a hang guard, not a speed check: milliseconds now, an hour before
def test_an_unclosed_fence_line_of_a_million_spaces_is_read_in_one_pass() -> None:
    # A <pre> block keeps its spaces, and spaces cost no tokens, so a chunk can hold this.
    body = "Install the widgets package before you start:\n\n```" + " " * 1_000_000
    context = Context(
        source_id=1, title="Guide", link="", type="text", relevance=1.0, parts=[(0.0, body)]
    )
    answer = extractive_answer(question="install the widgets package", contexts=[context])
    assert "> Install the widgets package before you start:" in answer
