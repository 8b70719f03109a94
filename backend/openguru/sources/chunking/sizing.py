"""Fitting text into chunks that never exceed the token budget, context prefix included."""

import re
from collections.abc import Callable, Iterator

from langchain_text_splitters import RecursiveCharacterTextSplitter

from openguru.sources.chunking.base import CountTokens, Limits

SplitterFactory = Callable[[int, int, CountTokens], RecursiveCharacterTextSplitter]
# A run this long with no space in it (a base64 blob, a minified line, brackets by the thousand)
# is cut by characters directly: the splitter would take it apart one character at a time,
# measuring each, which takes minutes for a few megabytes.
_LONG_RUN = re.compile(r"\S{2000,}")


def prose_splitter(budget: int, overlap: int, count: CountTokens) -> RecursiveCharacterTextSplitter:
    return RecursiveCharacterTextSplitter(
        separators=["\n\n", "\n", ". ", " ", ""],
        keep_separator="end",  # ". " stays with its sentence, not at the next chunk's start
        chunk_size=budget,
        chunk_overlap=overlap,
        length_function=count,
    )


def fit(
    prefix: str, body: str, limits: Limits, splitter: SplitterFactory
) -> Iterator[tuple[str, str]]:
    """(chunk text, body piece) pairs whose chunk text never exceeds `limits.size` tokens."""
    body = body.strip()
    if not body:
        return
    prefix = _shorten_prefix(prefix, limits)
    head = f"{prefix}\n\n" if prefix else ""
    budget = max(limits.size - limits.count(head), 1)
    overlap = min(limits.overlap, budget // 2)
    pieces: list[str] = []
    start = 0
    for run in [*_LONG_RUN.finditer(body), None]:
        between = body[start : run.start() if run else len(body)]
        if not between.strip():
            pass
        elif limits.count(head + between.strip()) <= limits.size:
            pieces.append(between.strip())
        else:
            pieces.extend(splitter(budget, overlap, limits.count).split_text(between))
        if run:
            pieces.append(run.group())  # `_enforce` cuts it
            start = run.end()
    for piece in pieces:
        # Token counts of pieces do not always add up to the count of the joined text
        # (sub-word tokenizers), so the assembled chunk is measured once more.
        for part in _enforce(head, piece, limits):
            yield head + part, part


def truncate(text: str, max_tokens: int, count: CountTokens) -> str:
    """The longest prefix of `text` within `max_tokens` (binary search on characters)."""
    # First a prefix already over the budget, found by doubling: a text of megabytes (one word
    # with no space in it) is not measured whole at every step, nor at every cut.
    high = 256
    while high < len(text) and count(text[:high]) <= max_tokens:
        high *= 2
    if high >= len(text):
        if count(text) <= max_tokens:
            return text
        high = len(text)
    low = 0
    while low < high:
        middle = (low + high + 1) // 2
        if count(text[:middle]) <= max_tokens:
            low = middle
        else:
            high = middle - 1
    return text[:low]


def _enforce(head: str, piece: str, limits: Limits) -> list[str]:
    if limits.count(head + piece) <= limits.size:
        return [piece]
    parts: list[str] = []
    current = ""
    for word in re.split(r"(?<=\s)", piece):
        candidate = current + word
        if current and limits.count(head + candidate.rstrip()) > limits.size:
            parts.append(current.rstrip())
            current = word
        else:
            current = candidate
    if current.strip():
        parts.append(current.rstrip())
    # A single word longer than the budget (a URL, a base64 blob) is cut by characters.
    return [cut for part in parts for cut in _cut_characters(head, part, limits)]


def _cut_characters(head: str, text: str, limits: Limits) -> list[str]:
    cuts: list[str] = []
    while text:
        keep = max(len(truncate(head + text, limits.size, limits.count)) - len(head), 1)
        cuts.append(text[:keep])  # all of it, once what is left fits
        text = text[keep:]
    return [cut for cut in cuts if cut.strip()]


def _shorten_prefix(prefix: str, limits: Limits) -> str:
    """Keep the context prefix under a quarter of the chunk so the body still has room."""
    allowed = max(limits.size // 4, 1)
    if not prefix or limits.count(prefix) <= allowed:
        return prefix
    return truncate(elided(prefix), allowed, limits.count).rstrip()


def elided(heading_path: str) -> str:
    """A heading path with its middle left out ("Guide > … > Section"), for tight budgets."""
    parts = heading_path.split(" > ")
    return f"{parts[0]} > … > {parts[-1]}" if len(parts) > 2 else heading_path
