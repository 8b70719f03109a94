"""A real SMTP server on a loopback port (aiosmtpd) that keeps every message it receives, so
tests read what Django's SMTP backend actually sent."""

from __future__ import annotations

import email
import email.policy
import re
import time
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.fakes.loopback import free_port


class _Inbox:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        self.messages.append(parsed)  # type: ignore[arg-type]
        return "250 Message accepted for delivery"


class LoopbackSMTPServer:
    def __init__(self) -> None:
        self.port = free_port()
        self._inbox = _Inbox()
        self._controller = Controller(self._inbox, hostname="127.0.0.1", port=self.port)

    def start(self) -> LoopbackSMTPServer:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    @property
    def messages(self) -> list[EmailMessage]:
        return self._inbox.messages

    def wait_for(self, count: int = 1, timeout: float = 5.0) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.messages

    @staticmethod
    def body(message: EmailMessage) -> str:
        part: Any = message.get_body(preferencelist=("plain",)) or message
        return str(part.get_content())

    @classmethod
    def link(cls, message: EmailMessage) -> str:
        found = re.search(r"https?://\S+", cls.body(message))
        assert found, cls.body(message)
        return found.group(0)
