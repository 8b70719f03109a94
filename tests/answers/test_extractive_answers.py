"""What an extractive answer (no LLM) quotes: the sentences that answer the question, with the
neighbour they need, not every sentence of the chunk; an FAQ answer whole; PDF text joined
across its line breaks; never a heading; each quote with the citation number of its source."""

import re

import pytest
from openguru.answers.engine.context import Context
from openguru.answers.engine.extractive import extractive_reply
from openguru.providers.embeddings.factory import get_embedder

# One short text mixing three topics, as a new user pastes it.
OPS_NOTES = (
    "Flaskr runs under gunicorn. The `workers` key sets how many gunicorn workers run on each "
    "host. Each worker handles one request at a time, so raise it for busy sites.\n\n"
    "To install Flaskr, run pip install flaskr on each host. It needs Python 3.10 or newer. "
    "Deploys are rolled out one host at a time by the deploy script.\n\n"
    "All settings live in config.toml next to the app. Changes to the config file take effect "
    "after a restart."
)


def context(
    text: str, *, title: str = "Ops notes", type: str = "text", source_id: int = 1, link: str = ""
):
    return Context(
        source_id=source_id,
        title=title,
        link=link,
        type=type,
        relevance=0.6,
        parts=[(0.0, text)],
    )


def quoted_lines(text: str) -> list[str]:
    return [line[2:] for line in text.splitlines() if line.startswith("> ")]


@pytest.mark.parametrize("semantic", [False, True], ids=["words", "words+embedder"])
def test_an_install_question_leads_with_the_install_step_and_what_it_needs(semantic):
    answer = extractive_reply(
        question="How do I install Flaskr?",
        contexts=[context(OPS_NOTES)],
        embedder=get_embedder() if semantic else None,
    )
    lines = quoted_lines(answer.text)
    assert lines[0] == (
        "To install Flaskr, run pip install flaskr on each host. It needs Python 3.10 or newer. [1]"
    )
    # the chunk's other topics are not quoted
    for other in ("Deploys are rolled out", "`workers` key", "config.toml", "restart"):
        assert other not in answer.text


def test_the_sentence_that_answers_leads_even_when_it_shares_few_words():
    answer = extractive_reply(
        question="How do I configure the number of workers?",
        contexts=[context(OPS_NOTES)],
        embedder=get_embedder(),
    )
    assert quoted_lines(answer.text)[0].startswith(
        "The `workers` key sets how many gunicorn workers run on each host."
    )
    assert "pip install" not in answer.text


def test_a_sentence_that_refers_back_brings_the_one_before():
    text = "Flaskr keeps a cache of rendered pages in /var/cache/flaskr. It is cleared on restart."
    answer = extractive_reply(question="When is it cleared on restart?", contexts=[context(text)])
    assert quoted_lines(answer.text) == [f"{text} [1]"]


FAQ = (
    "Q: Can I run Flaskr on Windows?\n"
    "A: No. Flaskr runs on Linux and macOS only.\nOn Windows, run it inside WSL.\n\n"
    "The installer says so too."
)


def test_an_faq_answer_is_quoted_whole_with_its_no_and_without_its_question():
    entry = context(FAQ, title="Can I run Flaskr on Windows?", type="faq")
    answer = extractive_reply(
        question="Does Flaskr work on Windows?", contexts=[entry], embedder=get_embedder()
    )
    assert quoted_lines(answer.text)[0] == (
        "No. Flaskr runs on Linux and macOS only. On Windows, run it inside WSL."
    )
    assert "> The installer says so too. [1]" in answer.text  # its second paragraph, quoted too
    assert "Can I run Flaskr on Windows?" not in answer.text  # no echo of the question
    assert answer.cited == [entry]


def test_pdf_text_is_quoted_joined_across_line_breaks_and_hyphenation():
    page = (
        "The configu-\nration file sets how many workers\nrun on each host. The cache is "
        "stored\nin /var/cache/flaskr."
    )
    answer = extractive_reply(question="Where is the cache stored?", contexts=[context(page)])
    assert quoted_lines(answer.text)[0] == "The cache is stored in /var/cache/flaskr. [1]"
    other = extractive_reply(
        question="What does the configuration file set?", contexts=[context(page)]
    )
    assert "The configuration file sets how many workers run on each host." in other.text


@pytest.mark.parametrize(
    "text",
    [
        "## Configuring the workers\n\nThe `workers` key sets how many workers run on each host.",
        "Configuring the workers\nThe `workers` key sets how many workers run on each host.",
        "Configuring the workers and the number of workers per host\n\n"
        "The `workers` key sets how many workers run on each host.",
    ],
    ids=["markdown", "pdf-title-line", "title-paragraph"],
)
def test_a_heading_is_never_quoted(text):
    answer = extractive_reply(
        question="How do I configure the number of workers?",
        contexts=[context(text)],
        embedder=get_embedder(),
    )
    assert quoted_lines(answer.text) == [
        "The `workers` key sets how many workers run on each host. [1]"
    ]


def test_only_quoted_sources_are_cited_and_numbered_as_they_are_quoted():
    def linked(text: str, n: int, **fields: str) -> Context:
        return context(text, source_id=n, link=f"https://docs.example.org/{n}", **fields)

    unrelated = linked("Flaskr's logo is a flask drawn in green ink.", 2, title="Logo")
    install = linked(OPS_NOTES, 3, title="Install")
    faq = linked(FAQ, 4, title="Can I run Flaskr on Windows?", type="faq")
    answer = extractive_reply(
        question="How do I install Flaskr, and does it run on Windows?",
        contexts=[unrelated, faq, install],
        embedder=get_embedder(),
    )
    numbers = [int(n) for n in re.findall(r"\[(\d+)\]\]\(\S+\)$", answer.text, re.M)]
    assert numbers and sorted(set(numbers)) == list(range(1, len(answer.cited) + 1))
    assert unrelated not in answer.cited
    # the n-th cited source is the one whose quote carries [n]
    quotes = [block for block in answer.text.split("\n\n") if block.startswith("> ")]
    assert len(quotes) >= 2
    for quote in quotes:
        match = re.fullmatch(r"(.*) \[\[(\d+)\]\]\((.*)\)", quote.replace("> ", "").strip(), re.S)
        assert match, quote
        words, number, link = match.groups()
        source = answer.cited[int(number) - 1]
        assert link == source.link
        assert words.split(". ")[0] in source.body_text
