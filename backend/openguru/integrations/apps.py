from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    name = "openguru.integrations"
    label = "integrations"

    def ready(self) -> None:
        # Connects the widget's CORS decision to django-cors-headers' signal.
        from openguru.integrations.widget import cors  # noqa: F401
