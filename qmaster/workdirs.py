"""Whether a job's owner could enter its working directory, as the execd would find out.

Grid Engine's shepherd changes to ``-wd``/``-cwd`` as the job's owner: a path
under a directory the owner may not search fails with "Permission denied",
whatever lies below it. The simulated execd asks the same question without
switching users: it walks the path and checks each directory's search
permission for the owner's uid and groups (root may search anything). Asking
as the daemon (root) told a user whether a path under ``/root`` exists.
"""

from __future__ import annotations

import errno
import grp
import os
import stat
from pathlib import PurePosixPath

from qmaster.model import Identity


def workdir_error(path: str, owner: Identity) -> str | None:
    """Why ``owner`` could not change to directory ``path`` (a strerror text), or None."""
    groups = _groups(owner)
    walked = PurePosixPath("/")
    parts = PurePosixPath(path).parts
    if not parts or parts[0] != "/":
        return os.strerror(errno.ENOENT)
    for part in parts[1:]:
        if not _may_search(walked, owner.uid, groups):
            return os.strerror(errno.EACCES)
        walked = walked / part
        try:
            st = os.stat(walked)
        except FileNotFoundError:
            return os.strerror(errno.ENOENT)
        except OSError as exc:
            return os.strerror(exc.errno or errno.EACCES)
        if not stat.S_ISDIR(st.st_mode):
            return os.strerror(errno.ENOTDIR)
    return None if _may_search(walked, owner.uid, groups) else os.strerror(errno.EACCES)


def _may_search(directory: PurePosixPath, uid: int, groups: frozenset[int]) -> bool:
    if uid == 0:
        return True
    try:
        st = os.stat(directory)
    except OSError:
        return False
    if st.st_uid == uid:
        return bool(st.st_mode & stat.S_IXUSR)
    if st.st_gid in groups:
        return bool(st.st_mode & stat.S_IXGRP)
    return bool(st.st_mode & stat.S_IXOTH)


def _groups(owner: Identity) -> frozenset[int]:
    """The owner's primary and supplementary groups (as far as the group database knows)."""
    try:
        return frozenset(os.getgrouplist(owner.user, owner.gid))
    except (KeyError, OSError):
        return frozenset({owner.gid, *(g.gr_gid for g in grp.getgrall() if owner.user in g.gr_mem)})
