"""The GitHub App bot's reply: one comment in GitHub markdown with the answer, its sources and
trust score; a refusal says so politely and where to look instead."""

from openguru.answers.channels.bots import BotReply, reply_markdown

REFUSAL = (
    "Sorry, I couldn't find this in what I know about {guru}, so I won't guess.\n\n"
    "You could look through {where}, or wait for a maintainer: they will see this thread."
)
FOOTER = "<sub>Answered by {guru}'s guru. Mention me again in this thread to ask a follow-up.</sub>"


def _link(title: str, url: str) -> str:
    # Square brackets in a title would end the link text early.
    return f"[{title.replace('[', '(').replace(']', ')')}]({url})"


def github_reply_text(
    reply: BotReply, *, guru: str, site_url: str, docs: list[tuple[str, str]]
) -> str:
    """`docs`: (title, url) of some of the guru's sources, suggested with a refusal."""
    if reply.refused:
        places = [_link(title, url) for title, url in docs[:3]]
        if site_url:
            places.append(f"[{guru}'s questions and answers]({site_url})")
        where = ", ".join(places) if places else "the project's documentation"
        return REFUSAL.format(guru=guru, where=where)
    if reply.failed:
        return reply.text
    return reply_markdown(reply, link=_link) + "\n\n" + FOOTER.format(guru=guru)
