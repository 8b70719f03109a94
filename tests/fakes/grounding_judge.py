"""What the loopback LLM answers to the grounding check (`answers/quality/grounding.py`): a verdict per
claim from the share of the claim's words that a context holds, so an answer sentence copied
from a context is "supported", one half made of a context's words "partly", and one the
contexts never mention (like `UNSUPPORTED_SENTENCE`, which the fake can add to answers)
"unsupported". Deterministic: a function of the prompt."""

import re
from typing import Any

# A sentence no test corpus mentions: what `add_unsupported_every` appends to answers.
UNSUPPORTED_SENTENCE = "Every release also ships a built-in flux capacitor for time travel."

_CLAIM = re.compile(r'<claim id="(\d+)">(.*?)</claim>', re.S)
_CONTEXT = re.compile(r'<context id="(\d+)"[^>]*>\n(.*?)\n</context>', re.S)
_WORD = re.compile(r"[^\W_]{3,}")
SUPPORTED_SHARE = 0.8
PARTLY_SHARE = 0.4


def is_grounding_call(body: dict[str, Any]) -> bool:
    response_format = body.get("response_format") or {}
    return (response_format.get("json_schema") or {}).get("name") == "grounding"


def grounding_verdicts(prompt: str) -> dict[str, Any]:
    contexts = [(int(i), _words(text)) for i, text in _CONTEXT.findall(prompt)]
    verdicts = []
    for claim_id, claim in _CLAIM.findall(prompt):
        words = _words(claim)
        shares = [(len(words & held) / (len(words) or 1), i) for i, held in contexts]
        best = max((share for share, _ in shares), default=0.0)
        if UNSUPPORTED_SENTENCE in claim or best < PARTLY_SHARE:
            verdict, backing = "unsupported", []
        else:
            verdict = "supported" if best >= SUPPORTED_SHARE else "partly"
            backing = [i for share, i in shares if share >= PARTLY_SHARE]
        verdicts.append({"claim": int(claim_id), "verdict": verdict, "contexts": backing})
    return {"verdicts": verdicts}


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(text)}
