from django.apps import AppConfig


class AnswersConfig(AppConfig):
    name = "openguru.answers"
    label = "answers"
