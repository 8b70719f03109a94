import re
import uuid

from django.conf import settings


def collection_name_for(slug: str) -> str:
    """Milvus names allow letters, digits and underscores; a random tail keeps a re-created guru
    with the same slug away from a collection still being dropped."""
    safe = re.sub(r"[^0-9a-zA-Z_]", "_", slug)[:40]
    return f"{settings.MILVUS_COLLECTION_PREFIX}{safe}_{uuid.uuid4().hex[:8]}"
