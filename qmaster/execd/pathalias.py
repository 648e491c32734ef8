"""Path aliasing, sge_aliases(5): a job's ``-cwd``/``-wd`` directory as its execution host
sees it.

Grid Engine reads ``$SGE_ROOT/$SGE_CELL/common/sge_aliases`` and then the owner's
``~/.sge_aliases`` (path_alias_list_initialize()); each line other than a blank one or a
``#`` comment holds a source path, a submit host, an execution host and the path that
replaces the source (``*`` matches any host). The entries of the job's submit host are
kept, and the execution daemon rewrites the working directory with them in order, each
match applying to the path the earlier ones made (path_alias_list_get_path()).

minige reads the files when the task starts (Grid Engine's qsub reads them when it
submits the job and sends the entries with it); the working directory, ``PWD`` and the
default output files follow the aliased path, while ``qstat -j`` keeps the ``cwd`` as
submitted, as in Grid Engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

COMMON_FILE = "sge_aliases"
HOME_FILE = ".sge_aliases"


@dataclass(frozen=True, slots=True)
class PathAlias:
    """One line of an alias file."""

    origin: str
    submit_host: str
    exec_host: str
    translation: str


def _slashes(path: str) -> str:
    return re.sub("/+", "/", path)


def parse_aliases(text: str, name: str = "sge_aliases") -> list[PathAlias]:
    """The entries of one file (path_alias_read_from_file()); a line without all four
    fields raises ValueError with Grid Engine's text."""
    found = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if len(words) < 4:
            raise ValueError(f'invalid syntax of path alias file "{name}"')
        origin, submit, exec_host, translation = words[:4]
        found.append(PathAlias(_slashes(origin), submit, exec_host, _slashes(translation)))
    return found


def aliases_for(files: Iterable[Path], submit_host: str) -> list[PathAlias]:
    """The entries of the files that exist, in order, for jobs from ``submit_host``."""
    found: list[PathAlias] = []
    for path in files:
        if path.is_file():
            found += parse_aliases(path.read_text(errors="replace"), str(path))
    host = submit_host.lower()
    return [a for a in found if a.submit_host == "*" or a.submit_host.lower() == host]


def aliased(aliases: Sequence[PathAlias], path: str, exec_host: str) -> str:
    """``path`` as ``exec_host`` sees it: each entry whose source leads the path (and whose
    execution host is ``*`` or ``exec_host``) replaces that lead, in order."""
    for alias in aliases:
        if not path.startswith(alias.origin):
            continue
        if alias.exec_host != "*" and alias.exec_host.lower() != exec_host.lower():
            continue
        path = alias.translation + path[len(alias.origin) :]
    return path
