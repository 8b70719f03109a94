"""BM25 analyzers by name: settings-level facts, kept free of pymilvus so startup checks can
read them without importing the client."""

from typing import Any

# How the BM25 function turns text into terms, by MILVUS_BM25_ANALYZER name. An analyzer is
# fixed when its collection is created: changing the setting applies to new collections only.
#   standard: Milvus's default (standard tokenizer, lowercase); no analyzer_params are sent, so
#     the schema is the one collections had before the setting existed.
#   english: the same plus English Snowball stemming ("runs" matches "running"). Stop words are
#     kept: BM25's IDF already discounts them, and in code docs "if", "not" or "in" carry meaning.
# Measured with `manage.py eval` on Milvus Lite 2.5.1, BM25 nDCG@10 standard -> english, MiniLM
# 204-token chunks: SciFact 155 DEV claims 0.650 -> 0.675, 809 train claims 0.653 -> 0.684
# (hybrid 0.704 -> 0.713). Milvus's built-in {"type": "english"}, which also drops stop words,
# scored 0.670 / 0.680, and lost on django-docs-faq (doc nDCG@10 0.078 against 0.133 stemmed
# and 0.140 standard; 12 questions, fake-embedder chunks).
BM25_ANALYZERS: dict[str, dict[str, Any] | None] = {
    "standard": None,
    "english": {
        "tokenizer": "standard",
        "filter": ["lowercase", {"type": "stemmer", "language": "english"}],
    },
}
DEFAULT_BM25_ANALYZER = "english"


def bm25_analyzer_params(name: str) -> dict[str, Any] | None:
    try:
        return BM25_ANALYZERS[name]
    except KeyError:
        choices = " | ".join(BM25_ANALYZERS)
        raise ValueError(f"Unknown BM25 analyzer {name!r}: expected {choices}.") from None


def bm25_analyzer_name(params: dict[str, Any] | None) -> str:
    """The name of the analyzer with these parameters ("custom" for one not made here)."""
    for name, known in BM25_ANALYZERS.items():
        if known == params:
            return name
    return "custom"
