"""Create a cell from a configuration folder (``qmaster init``).

The configuration is validated whole before anything is written; the spool
database then receives every object, and ``common/`` the files clients read.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from qmaster.cell import DEFAULT_CONF_DIR, PROJECT_DIR, Cell
from qmaster.conf.store import ClusterConfig
from qmaster.core.outcome import SpoolDelta
from qmaster.spool.database import Spool

COMMON_FILES = ("sge_request", "qmaster.toml")
JSV_FILES = ("jsv_include.sh", "jsv.sh")
EXAMPLES_JSV = PROJECT_DIR / "examples" / "jsv"
ARCH_SCRIPT = "#!/bin/sh\n# minige's hosts are simulated; this is the architecture they report\necho lx-amd64\n"


class CellExists(Exception):
    """The cell was already created."""


def install_util(root: Path) -> None:
    """Put the JSV shell library where Grid Engine scripts source it from.

    Grid Engine's JSVs end with ``. $SGE_ROOT/util/resources/jsv/jsv_include.sh``;
    with minige's library (same function interface) there, they run unmodified.
    ``$SGE_ROOT/util/arch`` answers what the simulated hosts report.
    """
    jsv_dir = root / "util" / "resources" / "jsv"
    jsv_dir.mkdir(parents=True, exist_ok=True)
    for name in JSV_FILES:
        src, dest = EXAMPLES_JSV / name, jsv_dir / name
        if src.exists() and not dest.exists():
            shutil.copyfile(src, dest)
            dest.chmod(0o755)
    arch = root / "util" / "arch"
    if not arch.exists():
        arch.write_text(ARCH_SCRIPT)
        arch.chmod(0o755)


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
    install_util(cell.root)
    spool = Spool(cell.database)
    try:
        delta = SpoolDelta(config={(k, n): t for k, n, t in config.to_rows()})
        spool.commit(delta)
    finally:
        spool.close()
    return config
