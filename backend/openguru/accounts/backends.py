"""Django's permission check answered by the access rule: `user.has_perm(READ_GURU, guru)`,
`user.has_perm(MANAGE_GURU, guru)` and `user.has_perm(SIGN_IN)` anywhere in the product."""

from typing import Any

from django.contrib.auth.backends import BaseBackend

from openguru.accounts.access import Action, guru_permission, is_admin, role_of
from openguru.core.auth import SIGN_IN
from openguru.gurus.permissions import MANAGE_GURU, READ_GURU

_GURU_ACTIONS = {READ_GURU: Action.READ, MANAGE_GURU: Action.MANAGE}


class RoleBackend(BaseBackend):
    """Signs nobody in (ModelBackend does); only answers what a role permits."""

    def has_perm(self, user_obj: Any, perm: str, obj: Any = None) -> bool:
        if perm == SIGN_IN:
            return role_of(user_obj) is not None
        action = _GURU_ACTIONS.get(perm)
        if action is None:
            return False
        if obj is None:
            return is_admin(user_obj)
        return guru_permission(actor=user_obj, guru=obj, action=action)
