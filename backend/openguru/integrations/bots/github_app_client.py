"""The GitHub App's calls to GitHub, through githubkit: the app's JWT (RS256, signed with its
private key) mints installation access tokens, which are cached until they expire, in Django's
cache (so every worker shares them), encrypted like the bot tokens. githubkit also sends a call
GitHub rate-limits (429, or a secondary limit's 403) again after its Retry-After when that is
short, and a 5xx again after a pause; what still fails raises `TransientError` (a rate limit's
`GitHubRateLimited`, which the task retries after its Retry-After). Any other 4xx (a 403 for
want of a permission, a 404) is `DomainError`: asking again would not change it.
`GITHUB_API_URL` is the API's address (GitHub Enterprise, or a stand-in in tests)."""

import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from githubkit import AppAuthStrategy, AppInstallationAuthStrategy, GitHub
from githubkit.auth.app import AppAuth
from githubkit.cache import BaseCache, MemCacheStrategy
from githubkit.exception import GitHubException, GraphQLFailed, RateLimitExceeded, RequestFailed
from githubkit.retry import RETRY_SERVER_ERROR
from githubkit.typing import RetryOption

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.integrations.crypto import secret_decrypt, secret_encrypt
from openguru.integrations.models import GitHubApp

TIMEOUT_SECONDS = 30
# A rate limit's Retry-After longer than this is not slept in the calling process (a worker's
# task has minutes; a console request seconds): the call fails and the task is retried later.
RETRY_AFTER_MAX_SECONDS = 30.0
_ADD_DISCUSSION_COMMENT = """
mutation($discussionId: ID!, $body: String!, $replyToId: ID) {
  addDiscussionComment(input: {discussionId: $discussionId, body: $body, replyToId: $replyToId}) {
    comment { id url }
  }
}
"""


class _SharedTokenCache(BaseCache):
    """githubkit's token cache kept in Django's cache; a token is a credential, so encrypted."""

    def get(self, key: str) -> str | None:
        stored = cache.get(key)
        return secret_decrypt(stored) if isinstance(stored, str) else None

    def set(self, key: str, value: str, ex: timedelta) -> None:
        seconds = int(ex.total_seconds())
        if seconds > 0:
            cache.set(key, secret_encrypt(value), timeout=seconds)


class _SharedCacheStrategy(MemCacheStrategy):
    def get_cache_storage(self) -> _SharedTokenCache:  # type: ignore[override]
        return _SharedTokenCache()


class GitHubRateLimited(TransientError):
    """GitHub's rate limit held past what is waited in process (`retry_after`: its seconds)."""


def _retry(exc: GitHubException, retry_count: int) -> RetryOption:
    """githubkit's own choice (a rate limit once, a 5xx thrice), but never a long sleep."""
    if isinstance(exc, RateLimitExceeded):
        wait = exc.retry_after.total_seconds()
        return RetryOption(retry_count < 1 and wait <= RETRY_AFTER_MAX_SECONDS, exc.retry_after)
    return RETRY_SERVER_ERROR(exc, retry_count)


def _app_auth(app: GitHubApp) -> AppAuthStrategy:
    return AppAuthStrategy(app_id=app.app_id, private_key=secret_decrypt(app.private_key))


def _client(auth: AppAuthStrategy | AppInstallationAuthStrategy) -> GitHub[Any]:
    return GitHub(
        auth,
        base_url=settings.GITHUB_API_URL,
        timeout=TIMEOUT_SECONDS,
        cache_strategy=_SharedCacheStrategy(),
        http_cache=False,
        user_agent="OpenGuru",
        auto_retry=_retry,
    )


def _installation_id(app: GitHubApp) -> int:
    return int(app.integration.external_id)


def _token_forget(app: GitHubApp) -> None:
    key = AppAuth.INSTALLATION_CACHE_KEY.format(
        issuer=app.app_id,
        installation_id=_installation_id(app),
        permissions="",
        repositories="",
        repository_ids="",
    )
    cache.delete(key)


def _error(exc: GitHubException, doing: str) -> Exception:
    if isinstance(exc, RateLimitExceeded):
        status = exc.response.status_code
        return GitHubRateLimited(
            ErrorCode.PROVIDER_UNAVAILABLE,
            f"GitHub answered {status} (rate limited) while {doing}.",
            retry_after=max(math.ceil(exc.retry_after.total_seconds()), 1),
        )
    if isinstance(exc, RequestFailed):
        status = exc.response.status_code
        if status >= 500 or status == 429:
            return TransientError(
                ErrorCode.PROVIDER_UNAVAILABLE, f"GitHub answered {status} while {doing}."
            )
        return DomainError(ErrorCode.PROVIDER_ERROR, f"GitHub answered {status} while {doing}.")
    if isinstance(exc, GraphQLFailed):
        return DomainError(ErrorCode.PROVIDER_ERROR, f"GitHub refused {doing}: {exc}")
    return TransientError(
        ErrorCode.PROVIDER_UNAVAILABLE, f"GitHub could not be reached while {doing}: {exc}"
    )


def _as_installation(app: GitHubApp, doing: str, call: Any) -> Any:
    """`call(github)` as the installation. A token GitHub refuses before its time (revoked, or
    the clocks disagree) is forgotten and a new one minted, once."""
    auth = _app_auth(app).as_installation(_installation_id(app))
    for attempt in (1, 2):
        try:
            with _client(auth) as github:
                return call(github)
        except RequestFailed as exc:
            if exc.response.status_code == 401 and attempt == 1:
                _token_forget(app)
                continue
            raise _error(exc, doing) from exc
        except GitHubException as exc:
            raise _error(exc, doing) from exc
    raise AssertionError("unreachable")


def github_app_describe(*, app: GitHubApp) -> dict[str, Any]:
    """GET /app with the app's JWT: its slug and name (and a check of the id and key)."""
    try:
        with _client(_app_auth(app)) as github:
            return dict(github.rest.apps.get_authenticated().json())
    except GitHubException as exc:
        raise _error(exc, "reading the app") from exc


def github_installation_repositories(*, app: GitHubApp) -> list[dict[str, Any]]:
    """The repositories the installation covers (GET /installation/repositories)."""

    def call(github: GitHub[Any]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for page in range(1, 11):  # 1,000 repositories at most: what a console lists
            response = github.rest.apps.list_repos_accessible_to_installation(
                per_page=100, page=page
            )
            body: dict[str, Any] = dict(response.json())
            repositories = list(body.get("repositories") or [])
            found.extend(repositories)
            if len(repositories) < 100:
                break
        return found

    return list(_as_installation(app, "listing the installation's repositories", call))


def github_issue_comment(*, app: GitHubApp, repository: str, number: int, body: str) -> str:
    """A comment on an issue or pull request (REST); its id."""
    owner, name = repository.split("/", 1)

    def call(github: GitHub[Any]) -> str:
        response = github.rest.issues.create_comment(owner, name, number, data={"body": body})
        return str(response.json()["id"])

    return str(_as_installation(app, "commenting on the issue", call))


def github_discussion_comment(
    *, app: GitHubApp, discussion_id: str, body: str, reply_to: str = ""
) -> str:
    """A comment on a discussion (GraphQL addDiscussionComment), or a reply in the thread of
    `reply_to` (a top-level comment's node id); its node id."""
    variables = {"discussionId": discussion_id, "body": body, "replyToId": reply_to or None}

    def call(github: GitHub[Any]) -> str:
        data = github.graphql(_ADD_DISCUSSION_COMMENT, variables=variables)
        return str(data["addDiscussionComment"]["comment"]["id"])

    return str(_as_installation(app, "commenting on the discussion", call))
