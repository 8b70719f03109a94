"""Bot threads continue binges: a follow-up in a thread is answered with its earlier exchange."""

from dataclasses import dataclass

from openguru.answers.channels.bots import BotReply
from openguru.answers.models import Binge, Question
from openguru.answers.services import binge_create
from openguru.integrations.bots.services import thread_binge_set
from openguru.integrations.models import Integration


@dataclass(frozen=True)
class BotThread:
    integration: Integration
    channel_id: str
    thread_id: str


def thread_remember(*, thread: BotThread, binge: Binge | None, reply: BotReply) -> None:
    """A thread's first answer roots a binge (as the web UI's sessions are rooted): the
    question record that ask saved, outside any binge."""
    if binge is not None or reply.question_id is None or reply.refused or reply.failed:
        return
    root = Question.objects.get(pk=reply.question_id)
    thread_binge_set(
        integration=thread.integration,
        channel_id=thread.channel_id,
        thread_id=thread.thread_id,
        binge=binge_create(guru=thread.integration.guru, root_question=root),
    )
