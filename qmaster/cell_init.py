"""Create a cell from a configuration folder (``qmaster init``).

The configuration is validated whole before anything is written; the spool
database then receives every object, and ``common/`` the files clients read.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from qmaster.cell import DEFAULT_CONF_DIR, Cell
from qmaster.conf.store import ClusterConfig
from qmaster.core.outcome import SpoolDelta
from qmaster.spool.database import Spool

COMMON_FILES = ("sge_request", "qmaster.toml")


class CellExists(Exception):
    """The cell was already created."""


def init_cell(cell: Cell, source: Path | None = None) -> ClusterConfig:
    """Validate ``source`` (default: the project's ``conf/``) and create the cell from it."""
    source = source or DEFAULT_CONF_DIR
    config = ClusterConfig.load_dir(source)  # raises ConfigError with path, line, reason
    if cell.database.exists():
        raise CellExists(f'cell "{cell.path}" already exists')
    cell.spool.mkdir(parents=True, exist_ok=True)
    cell.common.mkdir(parents=True, exist_ok=True)
    for name in COMMON_FILES:
        if (source / name).exists():
            shutil.copyfile(source / name, cell.common / name)
    (cell.common / "settings.sh").write_text(
        f'export SGE_ROOT="{cell.root}"\nexport SGE_CELL="{cell.name}"\n'
    )
    (cell.common / "bootstrap").write_text(
        f"# minige bootstrap\nqmaster_spool_dir {cell.spool}\nspooling_method sqlite\n"
    )
    spool = Spool(cell.database)
    try:
        delta = SpoolDelta(config={(k, n): t for k, n, t in config.to_rows()})
        spool.commit(delta)
    finally:
        spool.close()
    return config
