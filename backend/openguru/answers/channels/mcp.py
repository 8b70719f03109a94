"""An agent's answer (the MCP server's ask tools; chat/completions without `stream`): the
whole answer as one markdown text that names its sources. A question the guru declines is
answered with its refusal text: to an agent that is an answer too ("the sources don't cover
it")."""

from collections.abc import AsyncGenerator, Sequence

from openguru.answers.channels.events import answer_done, first_event
from openguru.answers.engine.events import AnswerEvent
from openguru.core.errors import DomainError, ErrorCode


def sources_suffix(references: Sequence[dict[str, str]]) -> str:
    """The "Sources:" list, numbered as the answer's inline citations ([1], [2]) number them
    ("" if none): an agent passes the text on, and the links are what make it checkable."""
    if not references:
        return ""
    lines = "\n".join(
        f"[{n}] [{r.get('title') or r['link']}]({r['link']})"
        if r.get("link")
        else f"[{n}] {r['title']}"
        for n, r in enumerate(references, start=1)
    )
    return f"\n\nSources:\n{lines}"


async def answer_markdown(events: AsyncGenerator[AnswerEvent, None]) -> str:
    try:
        try:
            await first_event(events)
        except DomainError as exc:
            if exc.code == ErrorCode.NO_ANSWER:
                return exc.msg
            raise
        done = await answer_done(events)
        return done["content"] + sources_suffix(done["references"])
    finally:
        await events.aclose()
