"""Question understanding (Gurubase's summary step): one structured-output LLM call that says
whether the question fits the guru and returns a prettified question, SEO slug, description,
intent and answer length. The engine runs it alongside retrieval and never waits for it."""

import asyncio
import logging
import time
from dataclasses import dataclass

from openguru.answers.engine.prompts import UNDERSTAND_SCHEMA, understand_messages
from openguru.answers.selectors import question_slug_for
from openguru.core.errors import DomainError
from openguru.gurus.models import Guru
from openguru.providers.llm.base import LLM

logger = logging.getLogger(__name__)


@dataclass
class Understanding:
    valid: bool = True
    question: str = ""
    slug: str = ""
    description: str = ""
    user_intent: str = ""
    answer_length: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


def plain_understanding(question: str) -> Understanding:
    """What is known without the LLM: the user's own words."""
    return Understanding(question=question, slug=question_slug_for(question))


async def understand(
    llm: LLM | None, *, guru: Guru, question: str, history: list[str]
) -> Understanding:
    if llm is None:
        return plain_understanding(question)
    messages = understand_messages(guru=guru, question=question, history=history)
    try:
        result = await llm.complete_json(messages, schema=UNDERSTAND_SCHEMA, name="understanding")
    except DomainError as exc:  # understanding is an optimisation: answer without it
        logger.warning("question understanding failed: %s", exc)
        return plain_understanding(question)
    data = result.data
    return Understanding(
        valid=bool(data.get("valid", True)),
        question=str(data.get("question") or question),
        slug=question_slug_for(str(data.get("slug") or question)),
        description=str(data.get("description", "")),
        user_intent=str(data.get("user_intent", "")),
        answer_length=int(data.get("answer_length") or 0),
        prompt_tokens=result.usage.prompt_tokens,
        completion_tokens=result.usage.completion_tokens,
    )


def understanding_if_ready(task: "asyncio.Task[Understanding]", question: str) -> Understanding:
    """The understanding if it already arrived; the answer never waits for it."""
    if task.done() and not task.cancelled() and task.exception() is None:
        return task.result()
    return plain_understanding(question)


class UnderstandingCall:
    """The understanding call of one answer, started on the event loop when the engine (or a
    worker thread, through `start_soon`) decides; the answer never waits for it."""

    def __init__(self, llm: LLM | None, *, guru: Guru, question: str) -> None:
        self._loop = asyncio.get_running_loop()
        self._llm, self._guru, self._question = llm, guru, question
        self._task: asyncio.Task[Understanding] | None = None
        self._cancelled = False
        self.ms: float | None = None  # how long the call took, once it finished

    def start_soon(self, history: list[str]) -> None:
        """From any thread."""
        self._loop.call_soon_threadsafe(self.start, history)

    def start(self, history: list[str]) -> None:
        """On the loop; the call starts once, and never after `cancel`."""
        if self._task is None and not self._cancelled:
            self._task = asyncio.create_task(
                understand(self._llm, guru=self._guru, question=self._question, history=history)
            )
            started = time.perf_counter()
            self._task.add_done_callback(lambda _: self._finished(started))

    def _finished(self, started: float) -> None:
        self.ms = (time.perf_counter() - started) * 1000

    @property
    def called(self) -> bool:
        """An LLM call was sent (it may have failed or been cancelled since)."""
        return self._task is not None and self._llm is not None

    @property
    def done(self) -> bool:
        return self._task is not None and self._task.done()

    def if_ready(self) -> Understanding:
        """The understanding if it already arrived, else the user's own words."""
        if self._task is None:
            return plain_understanding(self._question)
        return understanding_if_ready(self._task, self._question)

    def cancel(self) -> None:
        """Stop the call if it runs (a no-op once it finished) and refuse any later start."""
        self._cancelled = True
        if self._task is not None:
            self._task.cancel()

    async def result(self, history: list[str]) -> Understanding:
        self.start(history)
        if self._task is None:  # cancelled before it started
            return plain_understanding(self._question)
        return await self._task
