"""A conversation an OpenAI-style client keeps itself and sends whole with each question: its
last user message is the question, the user/assistant turns before it the history. Answers
given in the light of a history are saved in a binge of their own (the ask path opens it), so
none is ever reused for someone who asks the same words without that conversation."""

from dataclasses import dataclass
from typing import Any

from openguru.answers.channels.prepare import MAX_QUESTION_CHARS
from openguru.core.errors import DomainError, ErrorCode

HISTORY_TURNS = 5  # as many earlier turns as a binge passes to the prompt
MAX_ANSWER_CHARS = 8000  # the prompt quotes the last answer: an agent's own text stays bounded

Turn = tuple[str, str]  # (question, answer)


@dataclass(frozen=True)
class Conversation:
    question: str
    history: tuple[Turn, ...]


def conversation_from_messages(messages: list[dict[str, Any]]) -> Conversation:
    """System and tool messages are left out: the guru has its own instructions."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=None)
    if last_user is None:
        raise DomainError(ErrorCode.INVALID_INPUT, "messages: send a message with role 'user'.")
    question = _text(messages[last_user].get("content")).strip()
    if not question:
        raise DomainError(ErrorCode.INVALID_INPUT, "messages: the last user message is empty.")
    if len(question) > MAX_QUESTION_CHARS:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            f"messages: ask in at most {MAX_QUESTION_CHARS} characters.",
        )
    turns: list[list[str]] = []
    for message in messages[:last_user]:
        text = _text(message.get("content")).strip()
        if message.get("role") == "user" and text:
            turns.append([text[:MAX_QUESTION_CHARS], ""])
        elif message.get("role") == "assistant" and turns:
            turns[-1][1] = f"{turns[-1][1]}\n\n{text}".strip()[:MAX_ANSWER_CHARS]
    history = tuple((q, a) for q, a in turns[-HISTORY_TURNS:])
    return Conversation(question=question, history=history)


def _text(content: object) -> str:
    """A message's content: a string, or OpenAI's list of parts (only text parts count)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            part["text"]
            for part in content
            if isinstance(part, dict)
            and part.get("type") == "text"
            and isinstance(part.get("text"), str)
        )
    raise DomainError(
        ErrorCode.INVALID_INPUT, "messages: content must be a string or a list of text parts."
    )
