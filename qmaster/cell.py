"""Where a cell lives on disk: ``$SGE_ROOT/$SGE_CELL/{common,spool/qmaster}``.

Standard library only: every client command imports this to find the socket.
With no ``SGE_ROOT`` the cell inside the project checkout (``<project>/cell``)
is used, made from the project's ``conf/`` on first start.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
DEFAULT_CONF_DIR = PROJECT_DIR / "conf"


def default_root() -> Path:
    """The embedded root used when ``SGE_ROOT`` is not set."""
    return PROJECT_DIR / "cell"


@dataclass(frozen=True, slots=True)
class Cell:
    """The paths of one cell."""

    root: Path
    name: str

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Cell:
        """Locate the cell from ``SGE_ROOT``/``SGE_CELL`` (defaults: embedded, ``default``)."""
        env = dict(os.environ) if env is None else env
        root = env.get("SGE_ROOT") or str(default_root())
        return cls(Path(root), env.get("SGE_CELL") or "default")

    @property
    def path(self) -> Path:
        return self.root / self.name

    @property
    def common(self) -> Path:
        return self.path / "common"

    @property
    def spool(self) -> Path:
        return self.path / "spool" / "qmaster"

    @property
    def socket(self) -> Path:
        return self.spool / "qmaster.sock"

    @property
    def database(self) -> Path:
        return self.spool / "spool.db"

    @property
    def lock(self) -> Path:
        return self.spool / "lock"

    @property
    def pidfile(self) -> Path:
        return self.spool / "qmaster.pid"

    @property
    def messages(self) -> Path:
        return self.spool / "messages"

    @property
    def settings(self) -> Path:
        return self.common / "qmaster.toml"

    def exists(self) -> bool:
        return self.database.exists() or (self.common / "bootstrap").exists()
