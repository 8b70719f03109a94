"""The answer when no LLM is configured: the most relevant sentences of the kept contexts,
quoted with their citations and clearly labelled as extracted.

Documentation answers "how do I" with an example: a sentence ending in a colon followed by a
code block ("The simplest example of reading a CSV file:"). Such a sentence is quoted with the
block it introduces, as fenced code; code blocks are never quoted line by line as sentences.
Code comes either fenced (Markdown sources) or as a block of its own between blank lines (HTML
`<pre>`, plain text).
"""

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from openguru.answers.engine.context import Context

EXTRACTED_LABEL = "_Extracted from the sources (no language model is configured):_"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(])")
# Possessive quantifiers: the three runs of the opening line overlap, and backtracking among them
# made a fence line of n spaces (a <pre> block's) cost n^2 steps on every answer that quoted it.
_FENCE = re.compile(r"^```[ \t]*+([\w+-]*+)[^\n]*\n(.*?)(?:^```[ \t]*$|\Z)", re.M | re.S)
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
# A line of code: a prompt, indentation, a keyword, brackets or an assignment.
_CODE_LINE = re.compile(
    r"^(>>>|\$ |\.\.\. |[ \t]{2,}\S)|^(import|from|def|class|return|if|for|with)\b|[(){}\[\];=]"
)
# A line of prose: a list item, a capitalised sentence of four words or more ("Use the open()
# function:"), or eight words or more ending like a sentence (a wrapped paragraph's last line).
_PROSE_LINE = re.compile(r"^\s*[-*•] |^[A-Z][a-z']*( \S+){3,}[.!?:]$|^(?=\S)(\S+\s+){7,}\S*[.!?]$")
MAX_CODE_LINES = 15  # an example, not a listing: longer blocks are cut with a marker
_WORD = re.compile(r"[a-z0-9_]+")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "the",
        "this",
        "to",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    ]
)


@dataclass(frozen=True)
class _Block:
    text: str
    language: str = ""
    fenced: bool = False


@dataclass(frozen=True)
class _Passage:
    sentence: str
    code: _Block | None = None  # the block the sentence introduces with a colon


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def _blocks(text: str) -> list[_Block]:
    """Paragraphs and code blocks in order; a fence left open runs to the end of the text."""
    blocks: list[_Block] = []
    position = 0
    for fence in _FENCE.finditer(text):
        blocks.extend(_paragraphs(text[position : fence.start()]))
        if fence.group(2).strip():
            blocks.append(_Block(fence.group(2).strip("\n"), fence.group(1), fenced=True))
        position = fence.end()
    blocks.extend(_paragraphs(text[position:]))
    return blocks


def _paragraphs(text: str) -> Iterator[_Block]:
    for paragraph in _BLANK_LINES.split(text):
        if paragraph.strip():
            yield _Block(paragraph.strip("\n"))


def _sentences(text: str) -> list[str]:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return [s.strip() for line in lines for s in _SENTENCE.split(line) if len(s.strip()) > 20]


def _passages(text: str) -> list[_Passage]:
    """Quotable sentences of the prose blocks; a paragraph's last sentence ending in a colon
    takes the code block right after it along."""
    passages: list[_Passage] = []
    blocks = _blocks(text)
    code = [_is_code(block) for block in blocks]
    for i, block in enumerate(blocks):
        if code[i]:
            continue
        sentences = _sentences(block.text)
        if sentences and sentences[-1].endswith(":") and i + 1 < len(blocks) and code[i + 1]:
            passages.extend(_Passage(s) for s in sentences[:-1])
            passages.append(_Passage(sentences[-1], code=blocks[i + 1]))
        else:
            passages.extend(_Passage(s) for s in sentences)
    return passages


def _is_code(block: _Block) -> bool:
    """Fenced, or at least half of the lines look like code and fewer than half like prose (an
    unfenced `<pre>` block from HTML, a snippet in plain text)."""
    if block.fenced:
        return True
    lines = [line for line in block.text.splitlines() if line.strip()]
    code = sum(bool(_CODE_LINE.search(line)) for line in lines)
    prose = sum(bool(_PROSE_LINE.search(line)) for line in lines)
    return bool(lines) and code * 2 >= len(lines) and prose * 2 < len(lines)


def _code(block: _Block) -> str:
    lines = block.text.splitlines()
    if len(lines) > MAX_CODE_LINES:
        lines = [*lines[:MAX_CODE_LINES], "..."]
    body = "\n".join(lines).replace("```", "` ` `")  # a block must not close our fence
    return f"```{block.language}\n{body}\n```"


@dataclass(frozen=True)
class Quote:
    """A sentence the extractive answer quotes, the code block it introduces, and its source."""

    passage: _Passage
    context: Context

    @property
    def text(self) -> str:
        """The quoted words alone, without the citation: what a reader gets from the sources."""
        code = self.passage.code
        return self.passage.sentence if code is None else f"{self.passage.sentence}\n{code.text}"


def extracted_quotes(
    *, question: str, contexts: Sequence[Context], max_sentences: int = 5
) -> list[Quote]:
    """The sentences to quote, best first: most words shared with the question, the context's
    relevance breaking ties (docs/benchmarks.md compares this with semantic rankings)."""
    query = _words(question)
    scored: list[tuple[float, int, _Passage, Context]] = []
    for rank, context in enumerate(contexts):
        for passage in _passages(context.body_text):
            overlap = len(query & _words(passage.sentence))
            if overlap:
                scored.append((overlap + context.relevance, -rank, passage, context))
    if not scored:
        scored = [
            (c.relevance, -r, passages[0], c)
            for r, c in enumerate(contexts)
            if (passages := _passages(c.body_text))
        ]
    quotes: list[Quote] = []
    for _, _, passage, context in sorted(scored, key=lambda s: (s[0], s[1]), reverse=True):
        if len(quotes) == max_sentences:
            break
        if not any(_repeats(passage.sentence, quote.passage.sentence) for quote in quotes):
            quotes.append(Quote(passage, context))
    return quotes


def _repeats(sentence: str, quoted: str) -> bool:
    """Already said: adjacent chunks overlap, and a section repeats across pages (release notes
    quote each other), so the same sentence, or a cut-off piece of it, comes back."""
    return _squeezed(sentence) in _squeezed(quoted) or _squeezed(quoted) in _squeezed(sentence)


def _squeezed(text: str) -> str:
    return " ".join(text.lower().split())


def extractive_answer(*, question: str, contexts: Sequence[Context], max_sentences: int = 5) -> str:
    lines = [EXTRACTED_LABEL, ""]
    for quote in extracted_quotes(
        question=question, contexts=contexts, max_sentences=max_sentences
    ):
        context = quote.context
        cite = f" — [{context.title}]({context.link})" if context.link else f" — {context.title}"
        lines.append(f"> {quote.passage.sentence}{cite}\n")
        if quote.passage.code is not None:
            lines.append(f"{_code(quote.passage.code)}\n")
    return "\n".join(lines).rstrip() + "\n"
