"""The answer when no LLM is configured: the sentences of the kept contexts that answer the
question, quoted with inline citation numbers and clearly labelled as extracted.

Every sentence of the contexts is ranked against the question: the share of the question's
words it holds, plus its cosine to the question when an embedder is at hand (the one that
embedded the question). The answer leads with the best sentence and, from the same paragraph,
the one neighbour it needs ("It needs Python 3.10 or newer." after the install step; the one
before, when the best sentence opens with "It" or "This"); other sentences follow only when they
score close to the best. An FAQ entry is quoted whole: its answer, not its question. What the
text parsing keeps out (headings, code lines, questions) is in `extractive_text.py`.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openguru.answers.engine.citations import CitationNumbers, citation
from openguru.answers.engine.context import Context
from openguru.answers.engine.extractive_text import Block, Passage, faq_entry, passages
from openguru.answers.engine.words import content_words
from openguru.providers.embeddings.base import Embedder

EXTRACTED_LABEL = "_Extracted from the sources (no language model is configured):_"
MAX_CODE_LINES = 15  # an example, not a listing: longer blocks are cut with a marker
MAX_EMBEDDED = 48  # sentences embedded per answer, the best by words first: a bounded cost
KEEP_SHARE = 0.75  # a quote after the first scores at least this share of the best
_REFERRING = ("It ", "Its ", "This ", "That ", "These ", "Those ", "They ", "Such ")


@dataclass(frozen=True)
class _Candidate:
    passage: Passage
    context: Context
    rank: int  # the context's place among the contexts
    index: int  # the passage's place in its context
    faq_question: str = ""  # an FAQ entry: its question, matched against the asked one


@dataclass(frozen=True)
class Quote:
    """What one quote says (a sentence and its neighbour, or an FAQ answer), its source and the
    source's citation number."""

    passages: tuple[Passage, ...]
    context: Context
    number: int = 1

    @property
    def code(self) -> Block | None:
        return self.passages[-1].code

    @property
    def sentences(self) -> str:
        return " ".join(passage.sentence for passage in self.passages)

    @property
    def text(self) -> str:
        """The quoted words alone, without the citation: what a reader gets from the sources."""
        code = self.code
        return self.sentences if code is None else f"{self.sentences}\n{code.text}"


def _candidates(contexts: Sequence[Context]) -> list[_Candidate]:
    found: list[_Candidate] = []
    for rank, context in enumerate(contexts):
        entry = faq_entry(context.body_text) if context.type == "faq" else None
        if entry is not None:
            found.append(_Candidate(Passage(entry.answer), context, rank, 0, entry.question))
            continue
        found.extend(
            _Candidate(passage, context, rank, i)
            for i, passage in enumerate(passages(context.body_text))
        )
    return found


def _scores(
    question: str, candidates: Sequence[_Candidate], embedder: Embedder | None
) -> list[float]:
    """Words of the question a sentence holds (0 to 1), plus its cosine to the question; the
    context's relevance breaks ties."""
    asked = content_words(question)
    words = [_share(asked, content_words(c.faq_question or c.passage.sentence)) for c in candidates]
    scores = [w + 0.01 * c.context.relevance for w, c in zip(words, candidates, strict=True)]
    if embedder is None or not candidates or not asked:
        return scores
    chosen = sorted(range(len(candidates)), key=lambda i: scores[i], reverse=True)[:MAX_EMBEDDED]
    texts = [candidates[i].faq_question or candidates[i].passage.sentence for i in chosen]
    vectors = embedder.embed_documents([question, *texts])
    for i, vector in zip(chosen, vectors[1:], strict=True):
        scores[i] += _cosine(vectors[0], vector)
    return scores


def _share(asked: set[str], said: set[str]) -> float:
    return len(asked & said) / len(asked) if asked else 0.0


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / norms if norms else 0.0


def extracted_quotes(
    *,
    question: str,
    contexts: Sequence[Context],
    max_sentences: int = 5,
    embedder: Embedder | None = None,
) -> list[Quote]:
    """The quotes, best first, numbered by the order their sources are first quoted."""
    candidates = _candidates(contexts)
    if not candidates or max_sentences <= 0:
        return []
    scores = _scores(question, candidates, embedder)
    order = sorted(range(len(candidates)), key=lambda i: (scores[i], -candidates[i].rank))
    order.reverse()
    best = scores[order[0]]
    numbers = CitationNumbers()
    quotes: list[Quote] = []
    taken: list[str] = []
    for i in order:
        if len(quotes) == max_sentences or (quotes and scores[i] < KEEP_SHARE * best):
            break
        candidate = candidates[i]
        if any(_repeats(candidate.passage.sentence, said) for said in taken):
            continue
        around = _with_neighbour(i, candidates, taken)
        taken.extend(passage.sentence for passage in around)
        number = numbers.number(candidate.context)
        quotes.append(Quote(tuple(around), candidate.context, number))
    return quotes


def _with_neighbour(
    position: int, candidates: Sequence[_Candidate], taken: Sequence[str]
) -> list[Passage]:
    """The lead sentence with the one sentence that completes it: the one before if the lead
    refers back to it, else the one after, from the same paragraph (or the next one, after a
    lead that ends in a colon: it announces what follows). None after an example's code."""
    lead = candidates[position]
    if lead.faq_question or lead.passage.code is not None:
        return [lead.passage]
    refers_back = lead.passage.sentence.startswith(_REFERRING)
    other = position - 1 if refers_back else position + 1
    if not 0 <= other < len(candidates):
        return [lead.passage]
    neighbour = candidates[other]
    announces = not refers_back and lead.passage.sentence.endswith(":")
    if (
        neighbour.context is not lead.context
        or (neighbour.passage.paragraph != lead.passage.paragraph and not announces)
        or any(_repeats(neighbour.passage.sentence, said) for said in taken)
    ):
        return [lead.passage]
    if refers_back:
        return [lead.passage] if neighbour.passage.code else [neighbour.passage, lead.passage]
    return [lead.passage, neighbour.passage]


def _repeats(sentence: str, quoted: str) -> bool:
    """Already said: adjacent chunks overlap, and a section repeats across pages (release notes
    quote each other), so the same sentence, or a cut-off piece of it, comes back."""
    return _squeezed(sentence) in _squeezed(quoted) or _squeezed(quoted) in _squeezed(sentence)


def _squeezed(text: str) -> str:
    return " ".join(text.lower().split())


def _code(block: Block) -> str:
    lines = block.text.splitlines()
    if len(lines) > MAX_CODE_LINES:
        lines = [*lines[:MAX_CODE_LINES], "..."]
    body = "\n".join(lines).replace("```", "` ` `")  # a block must not close our fence
    return f"```{block.language}\n{body}\n```"


def _quoted(quote: Quote) -> str:
    """A blockquote ending in the citation number; an FAQ answer keeps its paragraphs."""
    lines = quote.sentences.splitlines() or [""]
    lines[-1] = f"{lines[-1]} {citation(quote.number, quote.context.link)}"
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


@dataclass(frozen=True)
class ExtractiveAnswer:
    text: str
    cited: list[Context]  # one context per quoted source, in citation-number order


def extractive_reply(
    *,
    question: str,
    contexts: Sequence[Context],
    max_sentences: int = 5,
    embedder: Embedder | None = None,
) -> ExtractiveAnswer:
    quotes = extracted_quotes(
        question=question, contexts=contexts, max_sentences=max_sentences, embedder=embedder
    )
    lines = [EXTRACTED_LABEL, ""]
    cited: dict[int, Context] = {}
    for quote in quotes:
        cited.setdefault(quote.number, quote.context)
        lines.append(f"{_quoted(quote)}\n")
        if quote.code is not None:
            lines.append(f"{_code(quote.code)}\n")
    text = "\n".join(lines).rstrip() + "\n"
    return ExtractiveAnswer(text=text, cited=[cited[n] for n in sorted(cited)])


def extractive_answer(
    *,
    question: str,
    contexts: Sequence[Context],
    max_sentences: int = 5,
    embedder: Embedder | None = None,
) -> str:
    return extractive_reply(
        question=question, contexts=contexts, max_sentences=max_sentences, embedder=embedder
    ).text
