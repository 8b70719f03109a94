"""What the browser tests read of an answer's citations: the `[n]` numbers its text shows, where
each links, and the numbered sources list under it."""

import re

# From one answer element and its sources list: the numbers in the text, the links of the
# numbers that are links, and the sources list's numbers and links.
READ_CITATIONS = """([answer, sources]) => ({
  text: answer.innerText,
  linked: [...answer.querySelectorAll('a')]
    .filter(a => /^\\[\\d+\\]$/.test(a.textContent.trim()))
    .map(a => [a.textContent.trim(), a.href]),
  listed: [...sources.querySelectorAll('li')].map(li => [
    li.querySelector('[data-citation]').textContent.trim(),
    li.querySelector('a') ? li.querySelector('a').href : '',
  ]),
})"""


def assert_citations_match(seen: dict) -> None:
    """Every number the answer shows is a source in its list, the n-th, linked to it; and every
    listed source is cited."""
    shown = {int(n) for n in re.findall(r"\[(\d+)\]", seen["text"])}
    listed = [number for number, _ in seen["listed"]]
    assert shown, seen["text"]
    assert listed == [f"[{n}]" for n in range(1, len(listed) + 1)]
    assert shown == set(range(1, len(listed) + 1)), (shown, listed)
    links = dict(seen["listed"])
    assert seen["linked"], "the numbers link to their sources"
    for number, href in seen["linked"]:
        assert links[number] == href, (number, href, links)
