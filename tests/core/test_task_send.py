"""The tasks that services send by name (`core/task_send.py`, to keep the task modules that call
those services out of an import cycle) are the tasks registered under those names."""

import pytest
from celery import current_app
from kombu.utils.imports import symbol_by_name
from openguru.answers.services import GROUNDING_TASK
from openguru.evaluation.golden import GOLDEN_RUN_TASK
from openguru.sources.routing import CRAWL_DISCOVERY_TASK, SOURCE_TASK, SUMMARY_TASK


@pytest.mark.parametrize(
    "name", [GROUNDING_TASK, GOLDEN_RUN_TASK, CRAWL_DISCOVERY_TASK, SOURCE_TASK, SUMMARY_TASK]
)
def test_a_name_sent_is_the_task_registered_under_it(name: str) -> None:
    task = symbol_by_name(name)
    assert task.name == name
    assert current_app.tasks[name] is task._get_current_object()
