"""Inline citation numbers, the same in every channel: an answer cites a source as `[n]` (linked
to it when it has a link), and its sources list holds only the sources it cites, the n-th being
the one cited n-th.

A source is a reference (one title and link: chunks of one page read as several contexts share
it). The extractive answer numbers the sources as it quotes them; the LLM cites the contexts by
their prompt ids, which `CitationStream` rewrites into that numbering as the answer streams."""

import re
from collections.abc import Sequence

from openguru.answers.engine.context import Context

_CITATION = re.compile(r"(?<![\w`])\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()")
_OPEN = re.compile(r"\[[\d,\s]*\]?$")  # a citation the next delta may finish (or link)
_FENCE = "```"


def reference_key(context: Context) -> tuple[str, str]:
    return context.title, context.link


def citation(number: int, link: str) -> str:
    """`[n]`, a link to the source where it has one: every channel that renders markdown
    (site, widget, API, bots) then shows a number one can follow."""
    return f"[[{number}]]({link})" if link else f"[{number}]"


class CitationNumbers:
    """Numbers sources in the order they are first cited."""

    def __init__(self) -> None:
        self._numbers: dict[tuple[str, str], int] = {}
        self._cited: list[Context] = []

    def number(self, context: Context) -> int:
        key = reference_key(context)
        if key not in self._numbers:
            self._numbers[key] = len(self._numbers) + 1
            self._cited.append(context)
        return self._numbers[key]

    @property
    def cited(self) -> list[Context]:
        """One context per cited source, in number order: `references_for` lists them so."""
        return list(self._cited)


class CitationStream:
    """The LLM's answer with its `[context id]` citations renumbered as cited, delta by delta:
    text that may be an unfinished citation is held until the next delta. Code (fenced or
    inline after a name, `a[1]`) and links (`[1](…)`) are left alone; an id the prompt did not
    give is dropped."""

    def __init__(self, contexts: Sequence[Context]) -> None:
        self.contexts = list(contexts)
        self.numbers = CitationNumbers()
        self._held = ""
        self._in_fence = False
        self._in_code = False  # inside an inline `code` span

    def feed(self, delta: str) -> str:
        text = self._held + delta
        cut = _hold_from(text)
        self._held = text[cut:]
        return self._rewrite(text[:cut])

    def flush(self) -> str:
        text, self._held = self._held, ""
        return self._rewrite(text)

    @property
    def cited(self) -> list[Context]:
        """The cited sources in number order; every context when the answer cited none by
        number (a model that ignored the instruction): its sources are then all it read."""
        return self.numbers.cited or self.contexts

    def _rewrite(self, text: str) -> str:
        pieces = text.split(_FENCE)
        for i, piece in enumerate(pieces):
            if i:
                self._in_fence = not self._in_fence
            if not self._in_fence:
                pieces[i] = self._prose(piece)
        return _FENCE.join(pieces)

    def _prose(self, text: str) -> str:
        spans = text.split("`")
        for i, span in enumerate(spans):
            if i:
                self._in_code = not self._in_code
            if not self._in_code:
                spans[i] = _CITATION.sub(self._renumbered, span)
        return "`".join(spans)

    def _renumbered(self, match: re.Match[str]) -> str:
        ids = [int(part) for part in match.group(1).split(",")]
        cited = {
            self.numbers.number(context): context.link
            for context in (self.contexts[i - 1] for i in ids if 1 <= i <= len(self.contexts))
        }
        return "".join(citation(number, link) for number, link in cited.items())


def _hold_from(text: str) -> int:
    """Where the text that may still become a citation (or a link, or a fence) starts."""
    cut = len(text)
    match = _OPEN.search(text)
    if match:
        cut = match.start()
    if text.endswith("`"):  # part of a fence's three backticks
        cut = min(cut, len(text.rstrip("`")))
    return cut
