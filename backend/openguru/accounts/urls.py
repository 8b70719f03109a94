from django.urls import path

from openguru.accounts.apis import (
    InvitationDetailApi,
    InvitationListApi,
    MemberDetailApi,
    MemberGuruDetailApi,
    MemberGuruListApi,
    MemberListApi,
)
from openguru.accounts.auth_apis import (
    InvitationAcceptApi,
    InvitationLookupApi,
    MeApi,
    PasswordChangeApi,
    PasswordResetApi,
    PasswordResetConfirmApi,
    SignInMethodsApi,
)
from openguru.accounts.sso_views import SsoCallbackApi, SsoStartApi

urlpatterns = [
    path("members/", MemberListApi.as_view(), name="member-list"),
    path("members/<int:user_id>/", MemberDetailApi.as_view(), name="member-detail"),
    path("members/<int:user_id>/gurus/", MemberGuruListApi.as_view(), name="member-guru-list"),
    path(
        "members/<int:user_id>/gurus/<slug:guru_slug>/",
        MemberGuruDetailApi.as_view(),
        name="member-guru-detail",
    ),
    path("invitations/", InvitationListApi.as_view(), name="invitation-list"),
    path(
        "invitations/<int:invitation_id>/",
        InvitationDetailApi.as_view(),
        name="invitation-detail",
    ),
    path("invitations/lookup/", InvitationLookupApi.as_view(), name="invitation-lookup"),
    path("invitations/accept/", InvitationAcceptApi.as_view(), name="invitation-accept"),
    path("auth/me/", MeApi.as_view(), name="auth-me"),
    path("auth/methods/", SignInMethodsApi.as_view(), name="auth-methods"),
    # mozilla-django-oidc reverses these two names.
    path("auth/oidc/start/", SsoStartApi.as_view(), name="oidc_authentication_init"),
    path("auth/oidc/callback/", SsoCallbackApi.as_view(), name="oidc_authentication_callback"),
    path("auth/password/", PasswordChangeApi.as_view(), name="password-change"),
    path("auth/password/reset/", PasswordResetApi.as_view(), name="password-reset"),
    path(
        "auth/password/reset/confirm/",
        PasswordResetConfirmApi.as_view(),
        name="password-reset-confirm",
    ),
]
