"""What an extractive answer may quote from a context: its sentences, in order, each knowing its
paragraph, and the code block a sentence introduces; or, for an FAQ entry, its answer whole.

Documentation answers "how do I" with an example: a sentence ending in a colon followed by a
code block ("The simplest example of reading a CSV file:"). Such a sentence is quoted with the
block it introduces, as fenced code; code blocks are never quoted line by line as sentences.
Code comes either fenced (Markdown sources) or as a block of its own between blank lines (HTML
`<pre>`, plain text). Prose is read with its wrapped lines joined (PDF pages, hard-wrapped text),
and a heading, or a question standing as one, is never a quotable sentence.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass

from openguru.sources.loaders.line_joining import heading_like, lines_joined

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(])")
# Possessive quantifiers: the three runs of the opening line overlap, and backtracking among them
# made a fence line of n spaces (a <pre> block's) cost n^2 steps on every answer that quoted it.
_FENCE = re.compile(r"^```[ \t]*+([\w+-]*+)[^\n]*\n(.*?)(?:^```[ \t]*$|\Z)", re.M | re.S)
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
_CHUNK_BREAK = re.compile(r"\n\.\.\.\n")  # how `Context.body_text` joins its chunks
# A line of code: a prompt, indentation, a keyword, brackets or an assignment.
_CODE_LINE = re.compile(
    r"^(>>>|\$ |\.\.\. |[ \t]{2,}\S)|^(import|from|def|class|return|if|for|with)\b|[(){}\[\];=]"
)
# A line of prose: a list item, a capitalised sentence of four words or more ("Use the open()
# function:"), or eight words or more ending like a sentence (a wrapped paragraph's last line).
_PROSE_LINE = re.compile(r"^\s*[-*•] |^[A-Z][a-z']*( \S+){3,}[.!?:]$|^(?=\S)(\S+\s+){7,}\S*[.!?]$")
# A spreadsheet row as the sheet loaders write it: "header: value" pairs joined by "; ". Data,
# not code, although its separators are a statement's.
_DATA_ROW = re.compile(r"^[^;\n]{1,80}(?:; [^:;\n]{1,80}: [^;\n]*)+$")
# The FAQ loader writes each entry as "Q: <question>\nA: <answer>".
_FAQ_ENTRY = re.compile(r"\AQ: (?P<question>[^\n]*)\nA: (?P<answer>.*)\Z", re.S)
MIN_SENTENCE_CHARS = 21


@dataclass(frozen=True)
class Block:
    text: str
    language: str = ""
    fenced: bool = False


@dataclass(frozen=True)
class Passage:
    """One quotable sentence (or an FAQ answer whole), where it stands, and the code block it
    introduces with a colon."""

    sentence: str
    paragraph: int = 0  # the prose block it belongs to: a neighbour is taken only within it
    code: Block | None = None


@dataclass(frozen=True)
class FaqEntry:
    question: str
    answer: str


def faq_entry(text: str) -> FaqEntry | None:
    match = _FAQ_ENTRY.match(text.strip())
    if match is None or not match["answer"].strip():
        return None
    return FaqEntry(match["question"].strip(), lines_joined(match["answer"]).strip())


def blocks(text: str) -> list[Block]:
    """Paragraphs and code blocks in order; a fence left open runs to the end of the text."""
    found: list[Block] = []
    position = 0
    for fence in _FENCE.finditer(text):
        found.extend(_paragraphs(text[position : fence.start()]))
        if fence.group(2).strip():
            found.append(Block(fence.group(2).strip("\n"), fence.group(1), fenced=True))
        position = fence.end()
    found.extend(_paragraphs(text[position:]))
    return found


def _paragraphs(text: str) -> Iterator[Block]:
    for paragraph in _BLANK_LINES.split(text):
        if paragraph.strip():
            yield Block(paragraph.strip("\n"))


def sentences(text: str) -> list[str]:
    """The block's sentences, its wrapped lines joined first; titles and questions left out.
    A spreadsheet row is quoted as it is, one row a sentence."""
    rows = [line.strip() for line in text.splitlines() if _DATA_ROW.match(line.strip())]
    if rows:
        rest = "\n".join(line for line in text.splitlines() if not _DATA_ROW.match(line.strip()))
        return rows + sentences(rest)
    lines = [line for line in lines_joined(text).splitlines() if not heading_like(line)]
    return [
        sentence.strip()
        for line in lines
        for sentence in _SENTENCE.split(line)
        if len(sentence.strip()) >= MIN_SENTENCE_CHARS and not sentence.rstrip().endswith("?")
    ]


def passages(text: str) -> list[Passage]:
    """Quotable sentences of the prose blocks; a paragraph's last sentence ending in a colon
    takes the code block right after it along. The chunks of a context (joined by a line of
    "...") are read apart: a sentence never runs on into the next chunk."""
    parts = [block for chunk in _CHUNK_BREAK.split(text) for block in blocks(chunk)]
    found: list[Passage] = []
    code = [is_code(block) for block in parts]
    for i, block in enumerate(parts):
        if code[i]:
            continue
        said = sentences(block.text)
        if said and said[-1].endswith(":") and i + 1 < len(parts) and code[i + 1]:
            found.extend(Passage(s, i) for s in said[:-1])
            found.append(Passage(said[-1], i, code=parts[i + 1]))
        else:
            found.extend(Passage(s, i) for s in said)
    return found


def is_code(block: Block) -> bool:
    """Fenced, or at least half of the lines look like code and fewer than half like prose (an
    unfenced `<pre>` block from HTML, a snippet in plain text)."""
    if block.fenced:
        return True
    lines = [line for line in block.text.splitlines() if line.strip()]
    code = sum(bool(_CODE_LINE.search(line)) for line in lines)
    prose = sum(bool(_PROSE_LINE.search(line) or _DATA_ROW.match(line)) for line in lines)
    return bool(lines) and code * 2 >= len(lines) and prose * 2 < len(lines)
