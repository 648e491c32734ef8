"""``jsv_url`` parsing and the checks made before a JSV script is started.

Standard library only. sge_types(1): ``jsv_url := [type:][user@]path``, where
the only type is ``script``. A user may be named only for the server JSV;
an empty one (``script:@/path``) means no user, for client and server JSVs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from qmaster.jsv.errors import JsvStartError, JsvUrlError

NO_JSV = frozenset({"", "none", "NONE"})


@dataclass(frozen=True, slots=True)
class JsvUrl:
    """A parsed ``jsv_url``."""

    path: str
    user: str | None = None
    type: str = "script"

    def __str__(self) -> str:
        user = f"{self.user}@" if self.user else ""
        return f"{self.type}:{user}{self.path}"


def parse_jsv_url(text: str, *, client: bool = False) -> JsvUrl:
    """Parse a ``jsv_url``; raises JsvUrlError with Grid Engine's text."""
    rest = text.strip()
    kind = "script"
    head, sep, tail = rest.partition(":")
    if sep and "/" not in head:
        kind, rest = head, tail
    if kind != "script":
        raise JsvUrlError(f'type "{kind}" in JSV URL is invalid')
    user: str | None = None
    head, sep, tail = rest.partition("@")
    if sep and "/" not in head:
        user, rest = (head or None), tail  # "script:@path": an empty user means none
        if client and user:
            raise JsvUrlError("specifying user is not allowed in client JSV URLs")
    if not rest:
        raise JsvUrlError(f'JSV URL "{text}" is invalid')
    return JsvUrl(rest, user, kind)


def check_script(path: str) -> float:
    """The script's mtime; raises JsvStartError if it cannot be run."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise JsvStartError(f'JSV file "{path}" does not exist') from None
    except OSError as exc:
        raise JsvStartError(f'JSV file "{path}" can\'t be started: {exc.strerror}') from None
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise JsvStartError(f'JSV "{path}" is either not a file or not executeable')
    return st.st_mtime


def check_server_url(text: str) -> None:
    """The configuration check of ``jsv_url``: ValueError with Grid Engine's text if it is bad."""
    if text.strip() in NO_JSV:
        return
    try:
        parse_jsv_url(text)
    except JsvUrlError as exc:
        raise ValueError(str(exc)) from None
