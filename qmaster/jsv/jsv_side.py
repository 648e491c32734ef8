"""The JSV's end of the protocol, sans I/O: what a JSV written in Python drives.

Standard library only. Feed the bytes read from stdin with ``receive_data``
(``b""`` at end of file); ``next_event`` gives :class:`Start`, :class:`Param`,
:class:`Env`, :class:`Begin` or :class:`Quit` (end of file counts as QUIT), or
``NEED_DATA``. The builder methods return the bytes to write to stdout::

    initialized --START--> started --PARAM/ENV...--> --BEGIN--> verifying
         ^                                                        |
         +------------------ result(...) or error(...) -----------+

A command in the wrong state raises JsvProtocolError; a JSV usually answers it
with :meth:`ScriptConnection.error`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from qmaster.jsv.errors import JsvProtocolError
from qmaster.jsv.params import escape_env, unescape_env
from qmaster.jsv.protocol import LOG_LEVELS, NEED_DATA, LineBuffer, ResultState, _NeedData


@dataclass(frozen=True, slots=True)
class Start:
    """START: a new verification begins."""


@dataclass(frozen=True, slots=True)
class Param:
    """PARAM name value (value "" when none was given)."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Env:
    """ENV ADD name value: one variable of the job environment (escapes undone)."""

    action: str
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Begin:
    """BEGIN: all parameters are in; verify now."""


@dataclass(frozen=True, slots=True)
class Quit:
    """QUIT, or the end of input: terminate."""


ScriptEvent = Start | Param | Env | Begin | Quit


class _S(enum.Enum):
    INITIALIZED = "initialized"
    STARTED = "started"
    VERIFYING = "verifying"


# (state, command) -> next state; QUIT is valid everywhere.
_TABLE: Final = {
    (_S.INITIALIZED, "START"): _S.STARTED,
    (_S.STARTED, "PARAM"): _S.STARTED,
    (_S.STARTED, "ENV"): _S.STARTED,
    (_S.STARTED, "BEGIN"): _S.VERIFYING,
    (_S.VERIFYING, "result"): _S.INITIALIZED,
}


class ScriptConnection:
    """The JSV end of the pipe."""

    def __init__(self, max_line: int = 64 * 1024 * 1024) -> None:
        self._lines = LineBuffer(max_line)
        self._state = _S.INITIALIZED

    @property
    def state(self) -> str:
        """initialized, started or verifying, as in Grid Engine's shell library."""
        return self._state.value

    def receive_data(self, data: bytes) -> None:
        """Feed bytes read from stdin (``b""`` at end of file)."""
        self._lines.feed(data)

    def next_event(self) -> ScriptEvent | _NeedData:
        """The next command from the client/qmaster, or NEED_DATA."""
        while True:
            line = self._lines.next_line()
            if line is None:
                return Quit() if self._lines.eof else NEED_DATA
            if line:
                return self._parse(line)

    def _parse(self, line: str) -> ScriptEvent:
        command, _, rest = line.partition(" ")
        if command == "QUIT":
            return Quit()
        self._move(command)
        if command == "PARAM":
            name, _, value = rest.partition(" ")
            return Param(name, value)
        if command == "ENV":
            action, _, tail = rest.partition(" ")
            name, _, value = tail.partition(" ")
            return Env(action, name, unescape_env(value))
        return Start() if command == "START" else Begin()

    def _move(self, command: str) -> None:
        nxt = _TABLE.get((self._state, command))
        if nxt is None:
            if command in ("START", "PARAM", "ENV", "BEGIN"):
                msg = f"JSV script got {command} command but is in state {self.state}"
            else:
                msg = f'JSV script got unknown command "{command[:200]}"'
            raise JsvProtocolError(msg)
        self._state = nxt

    @staticmethod
    def started(send_env: bool = False) -> bytes:
        """The answer to START (asking for the job environment first if wanted)."""
        return b"SEND ENV\nSTARTED\n" if send_env else b"STARTED\n"

    @staticmethod
    def param(name: str, value: str) -> bytes:
        """Change a parameter (an empty value deletes it)."""
        return _line("PARAM", name, value)

    @staticmethod
    def env(action: str, name: str, value: str = "") -> bytes:
        """Add (ADD), change (MOD) or delete (DEL) a job environment variable."""
        if action not in ("ADD", "MOD", "DEL"):
            raise ValueError(f"bad ENV modifier {action!r}")
        return _line("ENV", action, name, escape_env(value))

    @staticmethod
    def log(level: str, message: str) -> bytes:
        """A LOG INFO|WARNING|ERROR line."""
        if level not in LOG_LEVELS:
            raise ValueError(f"bad log level {level!r}")
        return _line("LOG", level, message)

    def result(self, state: ResultState | str, message: str = "") -> bytes:
        """The verdict for the job being verified."""
        self._move("result")
        name = state.value if isinstance(state, ResultState) else ResultState(state).value
        return _line("RESULT", "STATE", name, message)

    def error(self, message: str) -> bytes:
        """Report an error; the verification (if any) is over."""
        self._state = _S.INITIALIZED
        return _line("ERROR", message)


def _line(*parts: str) -> bytes:
    text = " ".join(p for p in parts if p != "") if parts[-1] == "" else " ".join(parts)
    if "\n" in text:
        raise ValueError("JSV protocol lines cannot hold a new line character")
    return (text + "\n").encode()


__all__ = ["NEED_DATA", "Begin", "Env", "Param", "Quit", "ScriptConnection", "Start"]
