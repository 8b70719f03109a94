from django.apps import AppConfig


class AnswersConfig(AppConfig):
    name = "openguru.answers"
    label = "answers"

    def ready(self) -> None:
        from openguru.answers import receivers  # noqa: F401  (connects them to sources' signals)
