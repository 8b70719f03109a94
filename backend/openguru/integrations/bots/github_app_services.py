"""A guru's GitHub App integration: set up by an admin with the app's id, private key and
webhook secret (stored encrypted) and the installation's id; GitHub is asked for the app's
slug (how the bot is mentioned), which also checks the id and key."""

from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.serialization import load_pem_private_key
from django.contrib.auth.models import User
from django.db import transaction

from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.bots.github_app_client import github_app_describe
from openguru.integrations.bots.services import (
    IntegrationSetup,
    integration_create,
    integration_update,
)
from openguru.integrations.crypto import secret_encrypt
from openguru.integrations.models import GitHubApp, Integration


@dataclass(frozen=True)
class GitHubAppSetup:
    """What an admin may set; None leaves a field as it is (PATCH)."""

    installation_id: str | None = None
    app_id: str | None = None
    private_key: str | None = None
    webhook_secret: str | None = None
    repositories: dict[str, Any] | None = None


def _private_key_checked(pem: str) -> str:
    """A key that cannot sign is the admin's mistake, told before GitHub is asked anything."""
    try:
        load_pem_private_key(pem.strip().encode(), password=None)
    except (ValueError, TypeError) as exc:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "The private key is not a PEM private key: paste the .pem file GitHub generated "
            "for the app, whole and without a password.",
        ) from exc
    return pem


def _app_named(app: GitHubApp) -> str:
    """The app's name as GitHub knows it; its slug saved on `app`."""
    described = github_app_describe(app=app)
    slug = str(described.get("slug") or "")
    if not slug:
        raise DomainError(ErrorCode.PROVIDER_ERROR, "GitHub did not say the app's slug.")
    app.slug = slug
    return str(described.get("name") or slug)


def github_app_create(*, guru: Guru, setup: GitHubAppSetup, owner: User) -> Integration:
    if not (setup.installation_id and setup.app_id and setup.private_key and setup.webhook_secret):
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "A GitHub App needs installation_id, app_id, private_key and webhook_secret.",
        )
    app = GitHubApp(
        app_id=setup.app_id,
        private_key=secret_encrypt(_private_key_checked(setup.private_key)),
        repositories=setup.repositories or {},
    )
    name = _app_named(app)  # before anything is saved: a wrong id or key saves nothing
    with transaction.atomic():
        integration = integration_create(
            guru=guru,
            type=Integration.Type.GITHUB,
            setup=IntegrationSetup(
                external_id=setup.installation_id,
                workspace_name=name,
                signing_secret=setup.webhook_secret,
            ),
            owner=owner,
        )
        app.integration = integration
        app.save()
    return integration


def github_app_update(*, integration: Integration, setup: GitHubAppSetup) -> Integration:
    app = integration.github_app
    if setup.app_id is not None:
        app.app_id = setup.app_id
    if setup.private_key is not None:
        app.private_key = secret_encrypt(_private_key_checked(setup.private_key))
    if setup.repositories is not None:
        app.repositories = setup.repositories
    name = _app_named(app) if setup.app_id or setup.private_key else None
    with transaction.atomic():
        integration_update(
            integration=integration,
            setup=IntegrationSetup(
                external_id=setup.installation_id,
                workspace_name=name,
                signing_secret=setup.webhook_secret,
            ),
        )
        app.save()
    return integration
