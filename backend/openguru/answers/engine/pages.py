"""Page-level ordering of the candidates (RETRIEVAL_PAGE_AGGREGATION).

A documentation page is cut into sections and a long section into several chunks, so one
chunk's rank says little about its page. A page is scored by the ranks of its best
PAGE_SECTIONS sections (each section at its best chunk's rank, so a long section split into
many chunks counts once): the sum of 1 / (PAGE_RANK_K + rank). The first LEADING_PAGES places
go to the best chunk of each of the best pages; every other chunk follows in its own order.

A page is a chunk's link without its #anchor, within its source; a section is the whole link.
A corpus with one link per document (pasted texts, SciFact, SQuAD) keeps its order exactly:
every page is one section, scored by its best chunk, which is where it already stood.
"""

from collections.abc import Sequence

from openguru.answers.engine.fusion import Candidate

PAGE_SECTIONS = 3  # one stray match does not make a page; three matching sections do
PAGE_RANK_K = 10  # rank damping: the first places decide, as in reciprocal-rank fusion
LEADING_PAGES = 10  # as many places as an answer reads contexts, and the eval's cutoff

Page = tuple[int, str]


def page_of(candidate: Candidate) -> Page:
    hit = candidate.hit
    link = str(hit.metadata.get("link") or "")
    return hit.source_id, link.split("#", 1)[0] or hit.id


def _section_of(candidate: Candidate) -> Page:
    hit = candidate.hit
    return hit.source_id, str(hit.metadata.get("link") or "") or hit.id


def page_scores(candidates: Sequence[Candidate]) -> dict[Page, float]:
    """Each page's score from the 1-based ranks of its sections' best chunks."""
    ranks: dict[Page, list[int]] = {}
    sections: set[Page] = set()
    for rank, candidate in enumerate(candidates, start=1):
        page_ranks = ranks.setdefault(page_of(candidate), [])
        section = _section_of(candidate)
        if section not in sections:
            sections.add(section)
            page_ranks.append(rank)
    return {
        page: sum(1.0 / (PAGE_RANK_K + rank) for rank in page_ranks[:PAGE_SECTIONS])
        for page, page_ranks in ranks.items()
    }


def by_page(candidates: Sequence[Candidate], *, leading: int = LEADING_PAGES) -> list[Candidate]:
    """The best chunk of each of the `leading` best pages, best page first; then every other
    candidate in its own order."""
    scores = page_scores(candidates)
    leaders: dict[Page, Candidate] = {}
    for candidate in candidates:
        leaders.setdefault(page_of(candidate), candidate)
    # sorted() is stable: pages that score alike keep the order of their best chunks
    first = sorted(leaders.values(), key=lambda c: scores[page_of(c)], reverse=True)[:leading]
    chosen = {id(c) for c in first}
    return first + [c for c in candidates if id(c) not in chosen]
