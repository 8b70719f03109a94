"""The repository's nginx configuration in Debian's nginx, on a free loopback port.

The template is rendered the way the nginx image renders it (only the OPENGURU_* names are
replaced; nginx's own `$variables` stay), into a prefix folder of its own with its pid file,
temporary folders and logs. The main file is this test's: the repository's sets container
paths (checked by `check_main_config`), and the workers here must run as the user that owns
the test's media folder.
"""

import os
import shutil
import signal
import string
import subprocess
from pathlib import Path

from openguru.providers.vectorstore.lite_server import free_port, wait_for_port

from tests.deploy.compose_model import REPO

NGINX = Path("/usr/sbin/nginx")
TEMPLATE = REPO / "nginx" / "templates" / "openguru.conf.template"
MAIN_CONFIG = REPO / "nginx" / "nginx.conf"

TEST_MAIN = """
worker_processes 1;
daemon off;
user {user};
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/conf.d/openguru.conf;
}}
"""


def render(values: dict[str, str]) -> str:
    text = string.Template(TEMPLATE.read_text()).safe_substitute(values)
    assert "${OPENGURU_" not in text.replace("${OPENGURU_*}", ""), "a name was left unrendered"
    return text


def check_main_config(prefix: Path, values: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on the repository's main file, its container paths pointed into `prefix`."""
    (prefix / "conf.d").mkdir(parents=True, exist_ok=True)
    (prefix / "conf.d" / "openguru.conf").write_text(render(values))
    main = MAIN_CONFIG.read_text().replace("/etc/nginx/conf.d/", f"{prefix}/conf.d/")
    main = main.replace("pid /tmp/nginx.pid;", f"pid {prefix}/nginx.pid;")
    (prefix / "nginx.conf").write_text(main)
    return subprocess.run(
        [str(NGINX), "-t", "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", "stderr"],
        capture_output=True,
        text=True,
    )


class NginxServer:
    def __init__(self, prefix: Path, *, backend: str, frontend: str, static: Path, media: Path):
        self.prefix = prefix
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.values = {
            "OPENGURU_LISTEN": f"127.0.0.1:{self.port}",
            "OPENGURU_BACKEND": backend.removeprefix("http://"),
            "OPENGURU_FRONTEND": frontend.removeprefix("http://"),
            "OPENGURU_STATIC_ROOT": f"{static}/",
            "OPENGURU_MEDIA_ROOT": f"{media}/",
        }
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> "NginxServer":
        if not NGINX.exists():
            raise RuntimeError(f"{NGINX} is missing: run backend/scripts/nginx_up.sh")
        for folder in ("conf.d", "body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.prefix / folder).mkdir(parents=True, exist_ok=True)
        (self.prefix / "conf.d" / "openguru.conf").write_text(render(self.values))
        user = "root" if os.geteuid() == 0 else os.environ.get("USER", "nobody")
        config = self.prefix / "nginx.conf"
        config.write_text(TEST_MAIN.format(prefix=self.prefix, user=user))
        argv = [str(NGINX), "-p", str(self.prefix), "-c", str(config), "-e", "stderr"]
        checked = subprocess.run([*argv, "-t"], capture_output=True, text=True)
        if checked.returncode:
            raise RuntimeError(f"nginx -t failed:\n{checked.stderr}")
        self._process = subprocess.Popen(argv, start_new_session=True)
        wait_for_port("127.0.0.1", self.port)
        return self

    def error_log(self) -> str:
        return (self.prefix / "error.log").read_text(errors="replace")

    def stop(self) -> None:
        if self._process is None:
            return
        try:
            os.killpg(self._process.pid, signal.SIGQUIT)  # graceful: finish, then exit
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()
        except ProcessLookupError:
            pass
        shutil.rmtree(self.prefix, ignore_errors=True)
