"""Secrets at rest (bot tokens, signing secrets, source credentials): Fernet (AES + HMAC) under
a key derived from INTEGRATION_ENCRYPTION_KEY, or from SECRET_KEY when that is empty."""

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings


def _fernet() -> Fernet:
    secret = settings.INTEGRATION_ENCRYPTION_KEY or settings.SECRET_KEY
    # Any string will do as the setting: its digest is the 32-byte key Fernet wants.
    digest = hashlib.sha256(b"openguru-integrations:" + secret.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def secret_encrypt(plain: str) -> str:
    return _fernet().encrypt(plain.encode()).decode() if plain else ""


def secret_decrypt(stored: str) -> str:
    """The plain secret; "" when none is stored or when it was encrypted under another key
    (the encryption key changed): the integration then needs its token again."""
    if not stored:
        return ""
    try:
        return _fernet().decrypt(stored.encode()).decode()
    except InvalidToken:
        return ""
