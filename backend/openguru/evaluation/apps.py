from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    name = "openguru.evaluation"
    label = "evaluation"
