"""An answer's decision trace for the admin: why it answered or refused, what each ranking
found, how the gate cut, its LLM calls and timings (`answers/engine/trace.py` says what is
stored)."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.answers.selectors import question_of_guru, refusal_of_guru
from openguru.core.openapi import errors
from openguru.gurus.selectors import guru_get

_TRACE_EXAMPLE = {
    "id": 42,
    "question": "How do I create a virtual environment?",
    "refused": False,
    "trace": {
        "decision": "answered",
        "reason": "passed_gate",
        "mode": "fast",
        "retrieval_mode": "hybrid",
        "fusion": "rrf",
        "list_weights": {"dense0": 1.0, "bm250": 0.42},
        "lists": {
            "dense0": [["12-9f2c", 0.61], ["12-77ab", 0.48]],
            "bm250": [["12-9f2c", 7.31]],
            "fused": [["12-9f2c", 0.02306], ["12-77ab", 0.01613]],
        },
        "threshold": 0.35,
        "gate": {"setting": 0.35, "margin": 0.3},
        "best": 0.61,
        "llm_calls": [
            {
                "name": "answer",
                "model": "gpt-4o-mini",
                "prompt_tokens": 812,
                "completion_tokens": 164,
                "ms": 2140.5,
                "sequential": True,
            }
        ],
        "tokens": {"prompt": 812, "completion": 164},
        "sequential_llm_calls": 1,
        "timings_ms": {"prepare_ms": 1.2, "retrieve_ms": 14.8, "first_token_ms": 402.3},
    },
}

_REFUSAL_EXAMPLE = {
    "id": 7,
    "question": "Which Django middleware sets the CSRF cookie?",
    "refused": True,
    "trace": {
        "decision": "refused",
        "reason": "low_relevance",
        "refused_because": "low_relevance",
        "threshold": 0.35,
        "best": 0.12,
        "kept": [],
        "llm_calls": [],
        "sequential_llm_calls": 0,
    },
}


class TraceOutput(serializers.Serializer):
    id = serializers.IntegerField()
    question = serializers.CharField(help_text="The user's own words.")
    refused = serializers.BooleanField()
    trace = serializers.JSONField(
        help_text="decision and reason; per list (dense<i>, bm25<i>, fused, reranked) the top "
        "candidate ids and scores; fusion weights; the gate's threshold, setting and margin, "
        "kept and dropped candidates; LLM calls with tokens and latency; timings_ms."
    )
    grounding = serializers.DictField(
        allow_null=True,
        required=False,
        help_text="An answer's claims checked against its sources after it was saved; null "
        "until checked, or without an LLM; absent for a refusal.",
    )


class QuestionTraceApi(APIView):
    @extend_schema(
        operation_id="question_trace",
        tags=["answers"],
        summary="Why an answer was given: its decision trace",
        responses={200: TraceOutput, **errors(401, 403, 404)},
        examples=[OpenApiExample("answered", value=_TRACE_EXAMPLE, response_only=True)],
    )
    def get(self, request: Request, slug: str, question_id: int) -> Response:
        question = question_of_guru(guru=guru_get(slug=slug), question_id=question_id)
        return Response(
            {
                "id": question.pk,
                "question": question.user_question,
                "refused": False,
                "trace": question.trace,
                "grounding": question.grounding,
            }
        )


class RefusalTraceApi(APIView):
    @extend_schema(
        operation_id="refusal_trace",
        tags=["answers"],
        summary="Why a question was refused: its decision trace",
        responses={200: TraceOutput, **errors(401, 403, 404)},
        examples=[OpenApiExample("refused", value=_REFUSAL_EXAMPLE, response_only=True)],
    )
    def get(self, request: Request, slug: str, refusal_id: int) -> Response:
        refusal = refusal_of_guru(guru=guru_get(slug=slug), refusal_id=refusal_id)
        return Response(
            {
                "id": refusal.pk,
                "question": refusal.user_question,
                "refused": True,
                "trace": refusal.trace,
            }
        )
