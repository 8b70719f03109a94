"""An agent's answer (the MCP server's ask tools; chat/completions without `stream`): the
whole answer as one markdown text that names its sources. A question the guru declines is
answered with its refusal text: to an agent that is an answer too ("the sources don't cover
it")."""

from collections.abc import AsyncGenerator, Sequence

from openguru.answers.channels.events import answer_done, first_event
from openguru.answers.engine.events import AnswerEvent
from openguru.core.errors import DomainError, ErrorCode


def sources_suffix(text: str, references: Sequence[dict[str, str]]) -> str:
    """A "Sources:" list of the references `text` does not link to already ("" if none): an
    agent passes the text on, and the links are what make it checkable."""
    missing = [r for r in references if r.get("link") and r["link"] not in text]
    if not missing:
        return ""
    links = "\n".join(f"- [{r.get('title') or r['link']}]({r['link']})" for r in missing)
    return f"\n\nSources:\n{links}"


async def answer_markdown(events: AsyncGenerator[AnswerEvent, None]) -> str:
    try:
        try:
            await first_event(events)
        except DomainError as exc:
            if exc.code == ErrorCode.NO_ANSWER:
                return exc.msg
            raise
        done = await answer_done(events)
        return done["content"] + sources_suffix(done["content"], done["references"])
    finally:
        await events.aclose()
