"""Whether two questions ask the same thing in other words: the guard on the near-duplicate cache.

An embedding alone cannot tell: all-MiniLM-L6-v2 puts "How do I convert a string to a number?"
and "…a number to a string?" at cosine 0.995, and SQuAD's dev questions hold distinct pairs at
0.99 that differ by one word ("formerly known" / "now known", "hundreds" / "thousands", "less" /
"more likely", "fail" / "not fail") or swap two names. Reusing an answer there would answer
another question. So a near-duplicate must also use the same words in the same order, except
for filler (articles, the "do" of "how do I", pronouns, "please"), case and punctuation; moving
one phrase of two words or more past another is allowed ("With venv, how do I create…?" / "How
do I create… with venv?"); swapping two words is not ("model form" / "form model").
"""

import re

_WORD = re.compile(r"\w[\w+#]*")  # "C++" and "C#" are not "C"
_FILLER = frozenset({"a", "an", "the", "do", "does", "did", "i", "we", "you", "one", "please"})


def _significant(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _FILLER]


def same_question(a: str, b: str) -> bool:
    first, second = _significant(a), _significant(b)
    if first == second:
        return True
    if sorted(first) != sorted(second):
        return False  # a word added, dropped or changed
    return _one_phrase_moved(first, second)


def _one_phrase_moved(first: list[str], second: list[str]) -> bool:
    """`second` is `first` with two adjacent runs of two words or more exchanged."""
    start = 0
    while first[start] == second[start]:
        start += 1
    end = len(first)
    while first[end - 1] == second[end - 1]:
        end -= 1
    left, right = first[start:end], second[start:end]
    return any(right == left[cut:] + left[:cut] for cut in range(2, len(left) - 1))
