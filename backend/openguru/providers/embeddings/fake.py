"""A deterministic embedder with no model: signed feature hashing of a bag of words.

Texts that share words get similar vectors, so retrieval tests mean something without the real
model (and run in microseconds). Not for production: it knows no synonyms.
"""

import hashlib
import math
import re
from collections.abc import Iterator, Sequence

# Frequent words would make every English text look alike; they carry no topic.
STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
        "how", "i", "in", "is", "it", "its", "of", "on", "or", "so", "that", "the", "this",
        "to", "was", "what", "when", "where", "which", "who", "why", "will", "with", "you",
        "your",
    }
)  # fmt: skip
_WORD = re.compile(r"\w+", re.UNICODE)
_TRIGRAM_WEIGHT = 0.3  # trigrams let "install" meet "installing", without outvoting whole words


def content_words(text: str) -> list[str]:
    """Lower-cased words of `text`, stopwords left out."""
    return [word for word in _WORD.findall(text.lower()) if word not in STOPWORDS]


class FakeEmbedder:
    def __init__(self, *, dimension: int = 384) -> None:
        self._dimension = dimension

    @property
    def model_name(self) -> str:
        return "fake-hash-embedder"

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def max_input_tokens(self) -> int:
        return 256

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._embed(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * self._dimension
        for feature, weight in _features(text):
            index, sign = _hash_feature(feature, self._dimension)
            vector[index] += sign * weight
        norm = math.sqrt(sum(value * value for value in vector))
        if norm == 0.0:
            # Empty text still needs a unit vector: cosine of a zero vector is undefined.
            index, _sign = _hash_feature("<empty>", self._dimension)
            vector[index] = 1.0
            return vector
        return [value / norm for value in vector]


def _features(text: str) -> Iterator[tuple[str, float]]:
    for word in content_words(text):
        yield f"w:{word}", 1.0
        padded = f"<{word}>"
        for start in range(len(padded) - 2):
            yield f"t:{padded[start : start + 3]}", _TRIGRAM_WEIGHT


def _hash_feature(feature: str, dimension: int) -> tuple[int, float]:
    """A bucket and a sign, stable across processes (unlike the salted built-in `hash`)."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    number = int.from_bytes(digest, "big")
    sign = 1.0 if number & 1 else -1.0
    return (number >> 1) % dimension, sign
