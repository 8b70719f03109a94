from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    name = "openguru.evaluation"
    label = "evaluation"

    def ready(self) -> None:
        from openguru.evaluation import receivers  # noqa: F401  (connects them to sources' signals)
