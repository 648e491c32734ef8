"""JSV exceptions and the texts Grid Engine shows for JSV outcomes.

Standard library only: the client JSV runner in ``qsub`` imports this. Every
exception's ``str()`` is the message the submitter (or the messages file)
sees; the texts follow Grid Engine's ``msg_sgeobjlib.h`` catalogue.
"""

from __future__ import annotations

MSG_REJECTED = "JSV rejected job"
MSG_TMPREJECT = "JSV temporarily rejected job"


def msg_no_response(path: str) -> str:
    """The rejection text after the JSV timed out twice."""
    return f'got no response from JSV script "{path}"'


def printable(text: str) -> str:
    """``text`` with control characters shown as ``\\xNN``, for messages."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def msg_unknown_command(command: str, context: str) -> str:
    """The rejection text for a line the JSV should never have sent."""
    command = printable(command)
    if context == "server":
        return f'master got unknown command from JSV: "{command}"'
    return f'JSV got unknown command "{command}"'


STDERR_SHOWN = 200
"""Characters of a JSV's stderr line that reach the user's message."""


def _shown(line: str) -> str:
    return "".join(c for c in line.replace("\t", " ") if c.isprintable()).strip()


def msg_stderr(line: str) -> str:
    """The rejection text when a server JSV wrote to its stderr: its line without
    control characters (a flood of NULs says nothing to a user), cut short."""
    return f"JSV stderr is - {_shown(line)[:STDERR_SHOWN]}"


def last_said(text: str) -> str | None:
    """The last line of a JSV's stderr that has something printable in it (Grid Engine
    shows the last line), or None when it wrote nothing at all."""
    if not text:
        return None
    said = [line for line in text.splitlines() if _shown(line)]
    return said[-1] if said else ""


def msg_mtime_changed(path: str) -> str:
    """The restart reason when the script file was modified."""
    return f'JSV modification time in "{path}" has changed'


def msg_setting_changed(url: str) -> str:
    """The restart reason when ``jsv_url`` changed."""
    return f'JSV setting of "{url}" has changed'


class JsvError(Exception):
    """Base of all JSV errors; ``str(exc)`` is the user-visible message."""


class JsvProtocolError(JsvError):
    """The JSV broke protocol 1.0: the job is rejected and the JSV restarted."""


class JsvLimitError(JsvProtocolError):
    """The JSV sent an over-long line or too much output for one job."""


class JsvClosed(JsvProtocolError):
    """The JSV closed its output (it exited or crashed) in the middle of a job."""


class JsvValueError(JsvError):
    """A job parameter value cannot be sent or was sent back malformed."""


class JsvUrlError(JsvError):
    """A ``jsv_url`` is malformed, names an unknown type or an unusable user."""


class JsvStartError(JsvError):
    """The JSV script could not be started (missing, not executable, ...)."""
