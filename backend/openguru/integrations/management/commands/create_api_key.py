"""Create a personal API key for scripts and CI; the key is printed once."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.core.errors import DomainError
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create


class Command(BaseCommand):
    help = "Create an API key (X-API-KEY) and print it. Only its hash is stored."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", default="cli", help="a label to recognise the key by")
        parser.add_argument("--user", default="", help="owner's username (default: first admin)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"No user named '{options['user']}'.")
        else:
            user = admin_token_owner()
        try:
            _, raw = api_key_create(user=user, name=options["name"])
        except DomainError as exc:
            raise CommandError(exc.msg) from exc
        self.stdout.write(raw)
