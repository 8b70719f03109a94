"""People: e-mail (invitations, password resets), their links, password rules, the audit log."""

from config.env import env

# One URL for the mail server: consolemail:// (the default: messages go to the process's
# output, as in `make run`), smtp://user:password@host:587/?tls=True (STARTTLS),
# smtps://user:password@host:465 (TLS from the start). django-environ turns it into
# EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS/SSL.
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT_SECONDS", default=10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="OpenGuru <openguru@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# The links in invitations and password-reset messages name SITE_URL (security.py).
INVITATION_EXPIRY_HOURS = env.int("INVITATION_EXPIRY_HOURS", default=72)
# Django's own setting: how long a password-reset link works.
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT_MINUTES", default=60) * 60

# Passwords (ModelBackend) and the OpenID Connect provider (accounts/sso.py, settings/sso.py)
# sign people in; what their role permits is answered by the access rule through Django's
# permission check (`user.has_perm`, accounts/backends.py).
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "openguru.accounts.sso.SsoBackend",
    "openguru.accounts.backends.RoleBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": env.int("PASSWORD_MIN_LENGTH", default=10)},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Audit events older than this many days are deleted by beat once a day; 0 keeps them all.
AUDIT_RETENTION_DAYS = env.int("AUDIT_RETENTION_DAYS", default=365)
