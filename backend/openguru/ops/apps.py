from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "openguru.ops"
    label = "ops"

    def ready(self) -> None:
        from openguru.ops import checks  # noqa: F401  (registers the settings check)
