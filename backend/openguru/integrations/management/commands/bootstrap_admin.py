"""Create the first admin on an empty install, and a first API key, and say how to use them."""

import secrets
from typing import Any

from config.env import DATA_DIR
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.integrations.models import APIKey

FIRST_KEY_NAME = "first-run"


class Command(BaseCommand):
    help = "Create the first admin user if none exists, and print how to sign in."

    def handle(self, *args: Any, **options: Any) -> None:
        credentials = DATA_DIR / "admin-credentials.txt"
        user_model = get_user_model()
        if not user_model.objects.filter(is_superuser=True).exists():
            password = secrets.token_urlsafe(12)
            user_model.objects.create_superuser("admin", "admin@localhost", password)
            credentials.parent.mkdir(parents=True, exist_ok=True)
            credentials.write_text(f"username: admin\npassword: {password}\n")
            credentials.chmod(0o600)
        if credentials.exists():
            self.stdout.write(f"Admin sign-in (from {credentials}):\n{credentials.read_text()}")
        else:
            self.stdout.write("An admin user already exists; sign in with its password.")
        self._first_api_key()
        if settings.ADMIN_TOKEN:
            self.stdout.write(
                "Scripts may also send 'Authorization: Bearer $OPENGURU_ADMIN_TOKEN'."
            )

    def _first_api_key(self) -> None:
        """A key for the README's quick start, so it works by copy-paste on a fresh install.
        Written once, readable only by its owner; not made again once the admin has keys
        (someone who revoked it meant it)."""
        key_file = DATA_DIR / "api-key.txt"
        owner = admin_token_owner()
        if not key_file.exists() and not APIKey.objects.filter(user=owner).exists():
            _, raw = api_key_create(user=owner, name=FIRST_KEY_NAME)
            key_file.parent.mkdir(parents=True, exist_ok=True)
            key_file.touch(mode=0o600)
            key_file.write_text(raw + "\n")
        if key_file.exists():
            self.stdout.write(f"API key for X-API-KEY: see {key_file}")
