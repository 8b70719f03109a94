"""The one place that reads environment variables.

Every variable is documented in `.env.example`; settings modules call `env(...)` from here and
nowhere else reads `os.environ` for configuration.
"""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent  # backend/
REPO_DIR = BASE_DIR.parent

env = environ.Env()

# A developer's `.env` at the repository root is optional; real environment variables win.
_dotenv = REPO_DIR / ".env"
if _dotenv.is_file():
    environ.Env.read_env(str(_dotenv), overwrite=False)

DATA_DIR = Path(env.str("OPENGURU_DATA_DIR", default=str(REPO_DIR / "data"))).resolve()
