"""Start a server JSV as another user (``jsv_url script:USER@PATH``) on any event loop.

uvloop refuses ``user=``/``group=`` in ``subprocess_exec``, so the daemon
starts the script through this small exec helper instead: a Python process
(still as root, in the JSV's own session) that drops its groups, sets the
user's gid and uid and the user's ``HOME``/``USER``/``LOGNAME``, and then
replaces itself with the script, keeping the pid and the pipes.
"""

from __future__ import annotations

import os
import pwd
import sys

# Run with ``python -I -c`` so that nothing is imported from the caller's paths.
HELPER = """
import os, sys
uid, gid, home, name, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
os.setgroups([])
os.setgid(gid)
os.setuid(uid)
os.environ.update(HOME=home, USER=name, LOGNAME=name)
os.execv(path, [path])
"""


def as_user_argv(path: str, entry: pwd.struct_passwd) -> list[str]:
    """The command that runs the script ``path`` as the user of ``entry``."""
    ids = [str(entry.pw_uid), str(entry.pw_gid), entry.pw_dir, entry.pw_name]
    return [sys.executable, "-I", "-c", HELPER, *ids, os.path.abspath(path)]
