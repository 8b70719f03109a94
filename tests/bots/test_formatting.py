"""What the bots write: markdown to Slack mrkdwn, mentions stripped, edits throttled, the
answer's footer."""

from openguru.answers.channels.bots import BotReply, EditThrottle, reply_markdown
from openguru.answers.channels.slack import markdown_to_mrkdwn
from openguru.integrations.bots.replies import question_text


def test_markdown_becomes_mrkdwn():
    markdown = (
        "## Set up\n"
        "Use **pip**, *carefully*, see [the docs](https://docs.example.org/a_b?x=1&y=2).\n"
        "- one\n"
        "* two\n"
        "Compare 1 < 2 and ~~old~~ `a**b** [x](y)`.\n"
        "```python\n"
        "squares = [x**2 for x in range(3)]  # **not bold** [a](b)\n"
        "```\n"
        "Done."
    )
    assert markdown_to_mrkdwn(markdown) == (
        "*Set up*\n"
        "Use *pip*, _carefully_, see <https://docs.example.org/a_b?x=1&amp;y=2|the docs>.\n"
        "• one\n"
        "• two\n"
        "Compare 1 &lt; 2 and ~old~ `a**b** [x](y)`.\n"
        "```\n"
        "squares = [x**2 for x in range(3)]  # **not bold** [a](b)\n"
        "```\n"
        "Done."
    )


def test_an_unclosed_code_block_while_streaming_stays_code():
    assert markdown_to_mrkdwn("Run:\n```bash\npip install **x**") == "Run:\n```\npip install **x**"


def test_mentions_are_not_part_of_the_question():
    assert question_text("<@U0BOT> how do I   use venv?") == "how do I use venv?"
    assert question_text("<@!1234> hi <@5678>") == "hi"


def test_edits_are_throttled_to_the_interval():
    now = [100.0]
    throttle = EditThrottle(1.0, clock=lambda: now[0])
    seen = []
    for _ in range(30):  # a token every 1/8 s for 3.75 s
        now[0] += 0.125
        seen.append(throttle.due())
    assert seen.count(True) == 3
    assert seen.index(True) == 7  # a second after the "Thinking…" message


def test_an_answer_ends_with_sources_and_trust_score():
    reply = BotReply(
        text="Use venv.",
        question_id=1,
        references=[
            {"title": "Venv", "link": "https://x.org/venv"},
            {"link": "https://y.org"},
            {"title": "Pasted notes", "link": ""},
        ],
        trust_score=0.834,
    )
    text = reply_markdown(reply, link=lambda title, url: f"[{title}]({url})")
    assert text == (
        # numbered as the answer's inline citations; a source without a link by its title
        "Use venv.\n\n**Sources:** [1] [Venv](https://x.org/venv) · [2] [https://y.org]"
        "(https://y.org) · [3] Pasted notes\n"
        "**Trust score:** 83%"
    )
    refusal = BotReply(text="Sorry, my sources don't cover this.", refused=True)
    assert reply_markdown(refusal, link=lambda t, u: u) == refusal.text
