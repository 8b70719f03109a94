import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# The answer path hands work between the event loop and worker threads (ORM, embedding, vector
# searches) many times per question. With CPython's default 5 ms switch interval, a thread that
# just got its result back can wait up to 5 ms for the GIL while another runs Python code.
# A 0.5 ms interval bounds that wait; the extra switches cost nothing measurable here.
sys.setswitchinterval(0.0005)

site = get_asgi_application()  # sets Django up: imports of project code come after it

from openguru.api_v1.mcp_server import with_mcp  # noqa: E402
from openguru.core.asgi import application_with_lean_answers  # noqa: E402
from openguru.core.body_limit import with_body_limit  # noqa: E402
from openguru.core.internal_hosts import with_internal_hosts  # noqa: E402

# /mcp is the MCP server (stateless, so it needs no lifespan: see api_v1/mcp_server.py). The
# deployment's own services reach the site by an internal host name without the HTTPS redirect
# (openguru/core/internal_hosts.py). Outermost, bodies over REQUEST_BODY_MAX_BYTES are refused
# before they are read (openguru/core/body_limit.py).
application = with_body_limit(with_mcp(application_with_lean_answers(with_internal_hosts(site))))
