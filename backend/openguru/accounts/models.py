from django.conf import settings
from django.db import models

from openguru.gurus.models import Guru


class Role(models.TextChoices):
    # Admin is Django's staff flag (what the admin token, staff sessions and staff keys have
    # always been); the two others are rows here.
    ADMIN = "admin", "Admin"
    MAINTAINER = "maintainer", "Maintainer"  # manages the gurus granted
    MEMBER = "member", "Member"  # reads and asks the private gurus granted


class Membership(models.Model):
    """A person's role. Staff users without a row are admins; others without one have none."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="membership",
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.role})"


class GuruGrant(models.Model):
    """A guru a maintainer manages, or a member may read and ask."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guru_grants"
    )
    guru = models.ForeignKey(Guru, on_delete=models.CASCADE, related_name="grants")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "guru"], name="guru_grant_unique_user_guru")
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.guru.slug}"


class Invitation(models.Model):
    """A one-time link to join with a role: only the token's SHA-256 is stored."""

    email = models.EmailField()
    role = models.CharField(max_length=16, choices=Role.choices)
    gurus = models.ManyToManyField(Guru, blank=True, related_name="+")
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.email} ({self.role})"
