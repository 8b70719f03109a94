from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "openguru.core.audit"
    label = "audit"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from openguru.core.audit import signals  # noqa: F401  (sign-ins, recorded by Django's signals)
