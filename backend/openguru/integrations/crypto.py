"""The doors' secrets at rest: the one implementation is `core/crypto.py`, which data sources'
credentials use too (a layer below the doors)."""

from openguru.core.crypto import secret_decrypt, secret_encrypt

__all__ = ["secret_decrypt", "secret_encrypt"]
