"""Single sign-on through an OpenID Connect provider (mozilla-django-oidc, accounts/sso.py),
the claims that decide a person's role and gurus, and whether passwords still sign anyone in."""

from config.env import env

from .security import SITE_URL

# false: the password sign-in (console and /admin/) refuses everyone; SSO is the only way in.
PASSWORD_SIGN_IN = env.bool("PASSWORD_SIGN_IN", default=True)

# The provider's endpoints (its /.well-known/openid-configuration lists them) and this site's
# client there. SSO is on when the client id and the authorization endpoint are both set.
OIDC_OP_AUTHORIZATION_ENDPOINT = env.str("OIDC_OP_AUTHORIZATION_ENDPOINT", default="")
OIDC_OP_TOKEN_ENDPOINT = env.str("OIDC_OP_TOKEN_ENDPOINT", default="")
OIDC_OP_USER_ENDPOINT = env.str("OIDC_OP_USER_ENDPOINT", default="")
OIDC_OP_JWKS_ENDPOINT = env.str("OIDC_OP_JWKS_ENDPOINT", default="")
OIDC_RP_CLIENT_ID = env.str("OIDC_RP_CLIENT_ID", default="")
OIDC_RP_CLIENT_SECRET = env.str("OIDC_RP_CLIENT_SECRET", default="")
OIDC_RP_SIGN_ALGO = env.str("OIDC_RP_SIGN_ALGO", default="RS256")
OIDC_RP_SCOPES = env.str("OIDC_RP_SCOPES", default="openid email profile")
SSO_ENABLED = bool(OIDC_RP_CLIENT_ID and OIDC_OP_AUTHORIZATION_ENDPOINT)
# The button's words on the sign-in page, e.g. "Sign in with Okta".
SSO_BUTTON_LABEL = env.str("SSO_BUTTON_LABEL", default="Sign in with SSO")
# The provider sends the browser back here (register this URL with it). It names SITE_URL,
# not the host the request came through: the console proxies /api on the site's origin.
OIDC_REDIRECT_URI = f"{SITE_URL}/api/auth/oidc/callback/"
OIDC_USE_PKCE = True
OIDC_TIMEOUT = env.int("OIDC_TIMEOUT_SECONDS", default=10)

# The claim whose values decide the role and gurus (a string or a list of strings, e.g. the
# groups a person is in), and what each value means: OIDC_ROLE_MAP="og-admins=admin,
# og-editors=maintainer,staff=member" (the highest role wins; no mapped value: refused) and
# OIDC_GURU_MAP="python-team=python|django" (slugs joined by |). Each SSO sign-in sets the
# role and the grants to what the claim says now.
OIDC_ROLE_CLAIM = env.str("OIDC_ROLE_CLAIM", default="groups")
OIDC_ROLE_MAP: dict[str, str] = env.dict("OIDC_ROLE_MAP", default={})
OIDC_GURU_MAP: dict[str, list[str]] = {
    value: [slug for slug in slugs.split("|") if slug]
    for value, slugs in env.dict("OIDC_GURU_MAP", default={}).items()
}
