"""Extractive answers quote the sources' own sentences, never the heading-path prefix that
chunks carry for the embedder, and bring along the code example a sentence introduces."""

from openguru.answers.engine.context import Context, without_prefix
from openguru.answers.engine.extractive import EXTRACTED_LABEL, MAX_CODE_LINES, extractive_answer

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


CSV_EXAMPLE = """import csv
with open('some.csv', newline='') as f:
    reader = csv.reader(f)
    for row in reader:
        print(row)"""


def answer_from(text: str, question: str = "How do I read a CSV file?") -> str:
    return extractive_answer(question=question, contexts=[context(text, headings=set())])


def test_a_sentence_ending_in_a_colon_brings_its_code_block_fenced():
    # As the HTML chunker writes a <pre>: a block of its own between blank lines, unfenced.
    answer = answer_from(f"The simplest example of reading a CSV file:\n\n{CSV_EXAMPLE}\n")
    quoted = "> The simplest example of reading a CSV file: [[1]](https://docs.example.org/venv.html#virtual-environments)"
    assert quoted in answer
    assert f"```\n{CSV_EXAMPLE}\n```" in answer.split(quoted, 1)[1]


def test_a_fenced_block_keeps_its_language():
    text = "Read a CSV file like this:\n\n```python\n" + CSV_EXAMPLE + "\n```\n\nThat is all."
    assert f"```python\n{CSV_EXAMPLE}\n```" in answer_from(text)


def test_code_lines_are_never_quoted_as_sentences():
    answer = answer_from(f"{CSV_EXAMPLE}\n\nEach CSV row read from the file is a list of strings.")
    assert "> Each CSV row read from the file is a list of strings." in answer
    assert "with open('some.csv'" not in answer  # no sentence introduced it: left out
    assert "```" not in answer


def test_a_colon_before_prose_brings_no_code():
    text = (
        "Reading a CSV file needs one thing:\n\n"
        "A file object opened with newline set to the empty string, as the csv module expects."
    )
    answer = answer_from(text)
    assert "```" not in answer
    # the colon announces what follows: the next paragraph's sentence completes the quote
    assert "> Reading a CSV file needs one thing: A file object opened with newline" in answer


def test_a_sentence_mentioning_a_call_is_prose():
    answer = answer_from(f"Use the csv.reader() function to read a CSV file:\n\n{CSV_EXAMPLE}")
    assert "> Use the csv.reader() function to read a CSV file:" in answer
    assert "import csv" in answer


def test_a_long_example_is_cut():
    lines = [f"row_{i} = next(reader)" for i in range(MAX_CODE_LINES + 5)]
    code = "\n".join(lines)
    answer = answer_from(f"Read a CSV file row by row:\n\n```\n{code}\n```")
    fenced = answer.split("```\n", 1)[1].rsplit("\n```", 1)[0]
    assert fenced.splitlines() == [*lines[:MAX_CODE_LINES], "..."]


def test_backticks_inside_the_code_cannot_close_our_fence():
    example = "fence = '```'\nprint(fence)"
    answer = answer_from(f"Write a CSV reading example in Markdown:\n\n{example}")
    assert answer.count("```") == 2
    assert "print(fence)\n```" in answer


def test_a_sentence_is_quoted_once():
    # Adjacent chunks overlap, and the second one starts part-way into the first's last sentence.
    first = f"Intro words that say nothing much at all.\n\n{BODY}"
    second = (
        f"virtual environment with source myenv/bin/activate before installing packages.\n\n{BODY}"
    )
    answer = extractive_answer(
        question="How do I create and activate a virtual environment?",
        contexts=[context(first, second, headings=set())],
    )
    assert answer.count("source myenv/bin/activate") == 1
    assert answer.count("python -m venv myenv") == 1
