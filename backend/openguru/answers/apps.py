from django.apps import AppConfig


class AnswersConfig(AppConfig):
    name = "openguru.answers"
    label = "answers"

    def ready(self) -> None:
        from openguru.answers import receivers  # noqa: F401  (connects them to sources' signals)
        from openguru.answers.analytics.rollup_migrations import rollup_triggers_follow_migrations

        rollup_triggers_follow_migrations(self)
