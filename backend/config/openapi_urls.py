"""The URLconf the OpenAPI document is generated from (never routed): the site's own routes,
plus, at the path of each plain Django view, the stand-in that documents it. drf-spectacular
sees DRF views only, and the async answer views are not DRF views."""

from collections.abc import Callable, Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, path
from openguru.answers import apis as answers
from openguru.answers.openapi import AnswerJsonDoc, AnswerStreamDoc
from openguru.api_v1 import answer as v1_answer
from openguru.api_v1 import chat as v1_chat
from openguru.api_v1.chat_openapi import ChatCompletionsDoc
from openguru.api_v1.openapi import V1AnswerDoc
from openguru.core.openapi import SchemaOnlyApi
from openguru.integrations.widget import ask as widget_ask
from openguru.integrations.widget.openapi import WidgetAskDoc

from config.urls import urlpatterns as site_urlpatterns

DOCUMENTED_BY: dict[Callable[..., Any], type[SchemaOnlyApi]] = {
    answers.answer_json: AnswerJsonDoc,
    answers.answer_stream: AnswerStreamDoc,
    v1_answer.answer: V1AnswerDoc,
    v1_chat.chat_completions: ChatCompletionsDoc,
    widget_ask.widget_ask: WidgetAskDoc,
}


def _stand_ins(
    patterns: list[Any], prefix: str = "", seen: set[Callable[..., Any]] | None = None
) -> Iterator[URLPattern]:
    """A view routed at two paths (with and without a trailing slash) is documented at the
    first."""
    seen = set() if seen is None else seen
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _stand_ins(pattern.url_patterns, prefix + str(pattern.pattern), seen)
        elif pattern.callback in DOCUMENTED_BY and pattern.callback not in seen:
            seen.add(pattern.callback)
            view = DOCUMENTED_BY[pattern.callback].as_view()
            yield path(prefix + str(pattern.pattern), view, name=pattern.name)


urlpatterns: list[URLPattern | URLResolver] = [
    *site_urlpatterns,
    *_stand_ins(site_urlpatterns),
]
