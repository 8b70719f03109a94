"""Identity tokens for a private guru's widget. The embedding site's server signs who its
visitor is with the widget id's secret, the way Intercom's identity verification works:

    signature = HMAC-SHA256(secret, f"{user_id}:{expires}")   # hex; expires: Unix seconds
    token = f"{expires}.{signature}.{user_id}"

and the page gives it to the widget (`data-token`), which sends it as `X-Widget-Token`. A
token lives at most `MAX_LIFETIME` seconds: a leaked one is soon worthless, and one that
claims to live longer is refused, so a site cannot mint tokens that never expire."""

import hashlib
import hmac
import re
import time

from openguru.core.errors import DomainError, ErrorCode

HEADER = "X-Widget-Token"
MAX_LIFETIME = 60 * 60  # seconds
MAX_USER_ID_CHARS = 200


def widget_token_signature(*, secret: str, user_id: str, expires: int) -> str:
    message = f"{user_id}:{expires}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def widget_token_make(*, secret: str, user_id: str, expires: int) -> str:
    """What the embedding site's server does (here for tests and the docs' example)."""
    signature = widget_token_signature(secret=secret, user_id=user_id, expires=expires)
    return f"{expires}.{signature}.{user_id}"


def widget_token_verify(*, secret: str, token: str, now: float | None = None) -> str:
    """The user id a valid token names; else `widget_token_required` (none sent),
    `widget_token_invalid` (malformed, wrong signature, or living too long) or
    `widget_token_expired`."""
    if not token:
        raise DomainError(
            ErrorCode.WIDGET_TOKEN_REQUIRED,
            "This guru is private: the page must give the widget a signed identity token.",
        )
    expires, signature, user_id = _parts(token)
    expected = widget_token_signature(secret=secret, user_id=user_id, expires=expires)
    if not secret or not hmac.compare_digest(signature, expected):
        raise DomainError(ErrorCode.WIDGET_TOKEN_INVALID, "The widget token's signature is wrong.")
    now = time.time() if now is None else now
    if expires <= now:
        raise DomainError(ErrorCode.WIDGET_TOKEN_EXPIRED, "The widget token has expired.")
    if expires > now + MAX_LIFETIME:
        raise DomainError(
            ErrorCode.WIDGET_TOKEN_INVALID,
            f"A widget token may live at most {MAX_LIFETIME} seconds.",
        )
    return user_id


def _parts(token: str) -> tuple[int, str, str]:
    expires, _, rest = token.partition(".")
    signature, _, user_id = rest.partition(".")
    if not re.fullmatch(r"[0-9]{1,12}", expires) or not signature or not user_id:
        raise DomainError(ErrorCode.WIDGET_TOKEN_INVALID, "The widget token is malformed.")
    if len(user_id) > MAX_USER_ID_CHARS:
        raise DomainError(ErrorCode.WIDGET_TOKEN_INVALID, "The widget token's user id is too long.")
    return int(expires), signature, user_id
