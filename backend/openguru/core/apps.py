from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "openguru.core"
    label = "core"

    def ready(self) -> None:
        from openguru.core import checks  # noqa: F401  (registers the settings check)
