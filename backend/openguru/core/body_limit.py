"""Request bodies capped before they are read (`REQUEST_BODY_MAX_BYTES`).

Django's ASGI handler reads a whole body (into memory, then a temporary file) before any view
or middleware sees the request, so a view cannot refuse a body that is too large before it has
been received, and a client announcing a huge one would hold a connection and disk space for as
long as it likes. Here a declared Content-Length over the cap is answered 413 at once, unread;
a body without one (chunked) is counted as it arrives and answered 413 the moment it passes
the cap, the application then seeing the client as gone.
"""

import json
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode

Scope = dict[str, Any]
Message = dict[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send: Callable[[Message], Awaitable[None]], limit: int) -> None:
    error = DomainError(
        ErrorCode.REQUEST_TOO_LARGE,
        f"The request body is larger than this server accepts ({limit // (1024 * 1024)} MiB).",
    )
    body = json.dumps(error.as_dict()).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    # Close the connection: the rest of the body is never read.
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [*headers, (b"connection", b"close")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def with_body_limit(app: ASGIApp) -> ASGIApp:
    async def application(scope: Scope, receive: Any, send: Any) -> None:
        limit = int(settings.REQUEST_BODY_MAX_BYTES)
        if scope["type"] != "http" or limit <= 0:
            await app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            await _refuse(send, limit)
            return
        await app(scope, *_counted(receive, send, limit))

    return application


def _counted(receive: Any, send: Any, limit: int) -> tuple[Any, Any]:
    """`receive` and `send` for a body of unknown length: past `limit` the client gets a 413
    and the application a disconnect; whatever it sends after that is dropped."""
    state = {"received": 0, "refused": False, "started": False}

    async def counting_receive() -> Message:
        if state["refused"]:
            return {"type": "http.disconnect"}
        message = await receive()
        if message["type"] == "http.request":
            state["received"] += len(message.get("body", b""))
            if state["received"] > limit:
                state["refused"] = True
                if not state["started"]:
                    await _refuse(send, limit)
                return {"type": "http.disconnect"}
        return message

    async def guarded_send(message: Message) -> None:
        if state["refused"]:
            return
        if message["type"] == "http.response.start":
            state["started"] = True
        await send(message)

    return counting_receive, guarded_send
