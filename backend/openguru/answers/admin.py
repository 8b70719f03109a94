from django.contrib import admin

from openguru.answers.models import (
    AskedDay,
    Binge,
    CitedDay,
    OutOfContextQuestion,
    Question,
    TrustDay,
    Vote,
    VoteDay,
)
from openguru.core.admin import ModeratedAdmin, ReadOnlyAdmin


@admin.register(Question)
class QuestionAdmin(ModeratedAdmin):
    list_display = ["id", "guru", "user_question", "source", "trust_score", "stale", "created_at"]
    list_filter = ["source", "stale", "extractive", "guru"]
    search_fields = ["user_question", "question", "slug"]
    list_select_related = ["guru"]
    date_hierarchy = "created_at"
    exclude = ["vector", "cited_sources"]


@admin.register(OutOfContextQuestion)
class OutOfContextQuestionAdmin(ModeratedAdmin):
    list_display = ["id", "guru", "user_question", "source", "best_score", "created_at"]
    list_filter = ["source", "guru"]
    search_fields = ["user_question"]
    list_select_related = ["guru"]
    date_hierarchy = "created_at"


@admin.register(Vote)
class VoteAdmin(ModeratedAdmin):
    list_display = ["id", "question", "vote_type", "source", "created_at"]
    list_filter = ["vote_type", "source"]
    search_fields = ["question__user_question", "feedback"]
    list_select_related = ["question"]
    exclude = ["voter"]  # a keyed hash of the reader's address: nothing to read in it


@admin.register(Binge)
class BingeAdmin(ReadOnlyAdmin):
    list_display = ["id", "guru", "root_question", "owner", "created_at"]
    list_filter = ["guru"]
    search_fields = ["root_question__user_question"]
    list_select_related = ["guru", "root_question", "owner"]


class _DayRollupAdmin(ReadOnlyAdmin):
    """The analytics' daily rollups, to look at: the triggers write them."""

    list_filter = ["guru"]
    date_hierarchy = "day"
    list_select_related = ["guru"]


@admin.register(AskedDay)
class AskedDayAdmin(_DayRollupAdmin):
    list_display = ["guru", "day", "source", "answers", "refusals", "refused"]


@admin.register(TrustDay)
class TrustDayAdmin(_DayRollupAdmin):
    list_display = ["guru", "day", "bucket", "answers"]


@admin.register(VoteDay)
class VoteDayAdmin(_DayRollupAdmin):
    list_display = ["guru", "day", "up", "down"]


@admin.register(CitedDay)
class CitedDayAdmin(_DayRollupAdmin):
    list_display = ["guru", "day", "title", "link", "answers"]
