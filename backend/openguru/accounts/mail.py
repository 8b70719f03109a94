"""Messages to people, through Django's e-mail backend (EMAIL_URL)."""

import logging
import smtplib
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


def mail_send(*, to: str, template: str, context: dict[str, Any]) -> bool:
    """Send `accounts/<template>_subject.txt` / `_body.txt` to `to`. False when the mail server
    refused or could not be reached: the caller still has the link to hand over."""
    subject = render_to_string(f"accounts/{template}_subject.txt", context).strip()
    body = render_to_string(f"accounts/{template}_body.txt", context)
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
    except (smtplib.SMTPException, OSError) as exc:
        logger.warning("Could not send the %s e-mail: %s", template, exc)
        return False
    return True
