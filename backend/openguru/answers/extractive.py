"""The answer when no LLM is configured: the most relevant sentences of the kept contexts,
quoted with their citations and clearly labelled as extracted."""

import re
from collections.abc import Sequence

from openguru.answers.context import Context

EXTRACTED_LABEL = "_Extracted from the sources (no language model is configured):_"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(])")
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


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def _sentences(text: str) -> list[str]:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return [s.strip() for line in lines for s in _SENTENCE.split(line) if len(s.strip()) > 20]


def extractive_answer(*, question: str, contexts: Sequence[Context], max_sentences: int = 5) -> str:
    query = _words(question)
    scored: list[tuple[float, int, str, Context]] = []
    for rank, context in enumerate(contexts):
        for sentence in _sentences(context.body_text):
            overlap = len(query & _words(sentence))
            if overlap:
                # Word overlap ranks sentences; the context's relevance breaks ties.
                scored.append((overlap + context.relevance, -rank, sentence, context))
    if not scored:
        scored = [
            (c.relevance, -r, _sentences(c.body_text)[0], c)
            for r, c in enumerate(contexts)
            if _sentences(c.body_text)
        ]
    best = sorted(scored, key=lambda s: (s[0], s[1]), reverse=True)[:max_sentences]
    lines = [EXTRACTED_LABEL, ""]
    for _, _, sentence, context in best:
        cite = f" — [{context.title}]({context.link})" if context.link else f" — {context.title}"
        lines.append(f"> {sentence}{cite}\n")
    return "\n".join(lines).rstrip() + "\n"
