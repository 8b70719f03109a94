"""Extractive answers quote the sources' own sentences, never the heading-path prefix that
chunks carry for the embedder."""

from openguru.answers.context import Context, without_prefix
from openguru.answers.extractive import EXTRACTED_LABEL, extractive_answer

BODY = (
    "Create a virtual environment with python -m venv myenv. Activate the virtual environment "
    "with source myenv/bin/activate before installing packages."
)


def context(*texts: str, headings: set[str]) -> Context:
    return Context(
        source_id=1,
        title="venv",
        link="https://docs.example.org/venv.html#virtual-environments",
        type="text",
        relevance=0.8,
        parts=[(float(i), text) for i, text in enumerate(texts)],
        headings=headings,
    )


def test_the_heading_path_prefix_is_not_quoted():
    path = "venv — Creation of virtual environments > Virtual environments"
    answer = extractive_answer(
        question="How do I create a virtual environment?",
        contexts=[context(f"{path}\n\n{BODY}", headings={path})],
    )
    assert answer.startswith(EXTRACTED_LABEL)
    assert "Create a virtual environment with python -m venv myenv." in answer
    assert path not in answer


def test_shortened_and_cut_prefixes_are_recognised():
    path = "Python docs > Tutorial > Environments > Virtual environments"
    for written in (path, "Python docs > … > Virtual environments", "Python docs > Tut"):
        assert without_prefix(f"{written}\n\n{BODY}", {path}) == BODY


def test_a_first_paragraph_that_is_not_a_heading_stays():
    text = f"Virtual environments keep projects apart from each other.\n\n{BODY}"
    assert without_prefix(text, {"venv > Virtual environments"}) == text
    assert without_prefix(BODY, {"venv"}) == BODY  # no paragraph break: nothing to drop


def test_the_answer_llm_still_reads_the_prefix():
    path = "venv > Virtual environments"
    assert context(f"{path}\n\n{BODY}", headings={path}).text.startswith(path)
