from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from openguru.accounts.models import GuruGrant, Invitation
from openguru.core.errors import DomainError, ErrorCode


def member_list() -> QuerySet[User]:
    grants = Prefetch(
        "guru_grants", GuruGrant.objects.select_related("guru").order_by("guru__slug")
    )
    users = get_user_model().objects.select_related("membership").prefetch_related(grants)
    return users.order_by("username")


def member_get(*, user_id: int) -> User:
    user = member_list().filter(pk=user_id).first()
    if user is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"No member {user_id}.")
    return user


def invitation_list_pending() -> QuerySet[Invitation]:
    pending = Invitation.objects.filter(
        accepted_at=None, revoked_at=None, expires_at__gt=timezone.now()
    )
    return pending.prefetch_related("gurus").order_by("-created_at")
