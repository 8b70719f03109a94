"""Microsoft Teams' credentials, both ways, as the Bot Framework's authentication protocol has
them. In: each activity carries a JWT the Bot Connector service signed (RS256, issuer
`https://api.botframework.com`, audience the bot's app id, the keys published by the OpenID
metadata's JWKS, each endorsed for the channels it may sign for). Out: the bot's app id and
secret are traded for a token (OAuth client credentials) sent with each call to the Connector.

The Agents SDK's own validator reads its keys from fixed Microsoft addresses and allows five
minutes past a token's expiry; here the metadata address is a setting (a stand-in in tests) and
the same checks are made with PyJWT, which the SDK uses too. MSAL, which the SDK's token
provider wraps, accepts only https authorities it can discover, so the token is asked for
directly, in the shape MSAL would send."""

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx
import jwt
from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import Integration

logger = logging.getLogger(__name__)

BOT_FRAMEWORK_ISSUER = "https://api.botframework.com"
BOT_FRAMEWORK_SCOPE = "https://api.botframework.com/.default"
MULTI_TENANT = "botframework.com"  # the token endpoint's tenant for a multi-tenant app
KEYS_TTL_SECONDS = 24 * 3600  # Microsoft rolls its keys over days ahead: a day's cache is safe
KEYS_REFETCH_SECONDS = 60  # an unknown key id refetches at most this often (forged ids)
CLOCK_SKEW_SECONDS = 60
HTTP_TIMEOUT_SECONDS = 10.0
TOKEN_MARGIN_SECONDS = 300  # a cached token is renewed this long before it expires


class TeamsTokenInvalid(Exception):
    """The activity's token is missing, forged, expired or not for this bot."""


@dataclass
class _Keys:
    fetched_at: float
    by_id: dict[str, dict[str, Any]]


_keys: dict[str, _Keys] = {}
_keys_lock = threading.Lock()


def _fetch_keys(metadata_url: str) -> dict[str, dict[str, Any]]:
    try:
        metadata = httpx.get(metadata_url, timeout=HTTP_TIMEOUT_SECONDS).raise_for_status().json()
        jwks = httpx.get(str(metadata["jwks_uri"]), timeout=HTTP_TIMEOUT_SECONDS)
        found = jwks.raise_for_status().json().get("keys") or []
    except (httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError) as exc:
        logger.warning("teams: the signing keys could not be read: %s", type(exc).__name__)
        raise DomainError(
            ErrorCode.PROVIDER_UNAVAILABLE, "The Bot Framework's signing keys could not be read."
        ) from exc
    return {str(key["kid"]): key for key in found if isinstance(key, dict) and key.get("kid")}


def _signing_key(kid: str) -> dict[str, Any] | None:
    """The published key `kid`, from a cache renewed daily, or at once (at most once a minute)
    when a key id is not in it (Microsoft rolled its keys over)."""
    url = settings.TEAMS_OPENID_METADATA_URL
    now = time.monotonic()
    with _keys_lock:
        cached = _keys.get(url)
        fresh = cached is not None and now - cached.fetched_at < KEYS_TTL_SECONDS
        if (
            cached is not None
            and fresh
            and (kid in cached.by_id or now - cached.fetched_at < KEYS_REFETCH_SECONDS)
        ):
            return cached.by_id.get(kid)
        cached = _keys[url] = _Keys(now, _fetch_keys(url))
        return cached.by_id.get(kid)


def teams_token_audience(authorization: str) -> tuple[str, str]:
    """The bearer token of an `Authorization` header and the app id it names (unverified: it
    only picks the integration whose app the token must then be verified for)."""
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TeamsTokenInvalid("no bearer token")
    try:
        audience = jwt.decode(token.strip(), options={"verify_signature": False}).get("aud")
    except jwt.PyJWTError as exc:
        raise TeamsTokenInvalid("not a JWT") from exc
    if not isinstance(audience, str) or not audience:
        raise TeamsTokenInvalid("no audience")
    return token.strip(), audience


def teams_token_verify(
    *, token: str, app_id: str, channel_id: str, service_url: str
) -> dict[str, Any]:
    """The token's claims once its signature (by a published key endorsed for `channel_id`),
    issuer, audience (`app_id`), lifetime and service URL (the activity's) check out."""
    try:
        kid = jwt.get_unverified_header(token).get("kid")
    except jwt.PyJWTError as exc:
        raise TeamsTokenInvalid("unreadable header") from exc
    published = _signing_key(str(kid or ""))
    if published is None:
        raise TeamsTokenInvalid("unknown signing key")
    endorsements = published.get("endorsements")
    if isinstance(endorsements, list) and channel_id not in endorsements:
        raise TeamsTokenInvalid("the key is not endorsed for this channel")
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            key=jwt.PyJWK(published).key,
            algorithms=["RS256"],
            audience=app_id,
            issuer=BOT_FRAMEWORK_ISSUER,
            leeway=CLOCK_SKEW_SECONDS,
            options={"require": ["exp", "iss", "aud"]},
        )
    except (jwt.PyJWTError, ValueError) as exc:
        raise TeamsTokenInvalid(type(exc).__name__) from exc
    # A token is for the Connector that sent it: replies (with our own token) go to that URL.
    claimed = str(claims.get("serviceUrl") or claims.get("serviceurl") or "")
    if claimed.rstrip("/") != service_url.rstrip("/"):
        raise TeamsTokenInvalid("the service URL is not the token's")
    return claims


_tokens: dict[tuple[int, str, str, str], tuple[str, float]] = {}
_tokens_lock = threading.Lock()


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def teams_bot_token(*, integration: Integration) -> str:
    """Blocking (one HTTP call when none is cached). The bot's token for the Bot Connector,
    kept in this process until shortly before it expires."""
    secret = secret_decrypt(integration.access_token)
    tenant = integration.tenant_id or MULTI_TENANT
    # A changed app id, tenant or secret gets a token of its own (a wrong secret must show).
    cache_key = (integration.pk, integration.external_id, tenant, _digest(secret))
    with _tokens_lock:
        cached = _tokens.get(cache_key)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
    try:
        response = httpx.post(
            settings.TEAMS_TOKEN_URL.format(tenant=tenant),
            data={
                "grant_type": "client_credentials",
                "client_id": integration.external_id,
                "client_secret": secret,
                "scope": BOT_FRAMEWORK_SCOPE,
            },
            timeout=HTTP_TIMEOUT_SECONDS,
        )
        found = response.raise_for_status().json()
        token, lifetime = str(found["access_token"]), float(found.get("expires_in") or 3600)
    except httpx.HTTPStatusError as exc:
        status = exc.response.status_code
        raise DomainError(
            ErrorCode.PROVIDER_ERROR, f"Microsoft refused the app id or secret (HTTP {status})."
        ) from exc
    except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
        raise DomainError(
            ErrorCode.PROVIDER_UNAVAILABLE,
            f"Microsoft's token endpoint could not be used: {type(exc).__name__}.",
        ) from exc
    with _tokens_lock:
        _tokens[cache_key] = (token, time.monotonic() + max(lifetime - TOKEN_MARGIN_SECONDS, 0))
    return token
