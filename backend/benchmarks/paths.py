"""Where the benchmark keeps its downloads, state and logs (all under `data/bench/`)."""

from dataclasses import dataclass
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[2]
BACKEND_DIR = REPO_DIR / "backend"


@dataclass(frozen=True)
class BenchPaths:
    root: Path

    @classmethod
    def default(cls) -> "BenchPaths":
        return cls(REPO_DIR / "data" / "bench")

    @property
    def downloads(self) -> Path:
        """The .deb cache: kept between runs, so only the first run needs the package mirror."""
        return self.root / "downloads"

    @property
    def site(self) -> Path:
        """Where the docs package is extracted (`dpkg -x`)."""
        return self.root / "python-docs"

    @property
    def state(self) -> Path:
        """The indexed docs guru: SQLite database, Milvus Lite data, media, broker folders.
        Reset by the ingest section; reused by the sections that ask questions."""
        return self.root / "state"

    @property
    def database(self) -> Path:
        return self.state / "bench.sqlite3"

    @property
    def milvus_data(self) -> Path:
        return self.state / "milvus" / "bench.db"

    @property
    def search_milvus_data(self) -> Path:
        """A throwaway Milvus Lite for the synthetic search section."""
        return self.root / "search-milvus" / "search.db"

    @property
    def logs(self) -> Path:
        return self.root / "logs"
