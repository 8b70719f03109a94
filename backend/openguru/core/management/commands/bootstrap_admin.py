"""Create the first admin on an empty install and say how to sign in."""

import secrets
from typing import Any

from config.env import DATA_DIR
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


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
        if settings.ADMIN_TOKEN:
            self.stdout.write(
                "Scripts may also send 'Authorization: Bearer $OPENGURU_ADMIN_TOKEN'."
            )
