"""The words of a text that say what it is about, for matching a question to a sentence: no
stop words, and each cut to a crude stem, so "install" matches "installing" and
"configure" matches "configuration"."""

import re

_WORD = re.compile(r"[a-z0-9_]+")
STEM_CHARS = 6
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
        "my",
        "me",
        "we",
        "our",
        "should",
        "could",
        "would",
        "there",
        "their",
    ]
)


_SUFFIXES = ("ing", "ed", "es", "s", "e")


def content_words(text: str) -> set[str]:
    return {_stem(word) for word in _WORD.findall(text.lower()) if word not in _STOP}


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:STEM_CHARS]
