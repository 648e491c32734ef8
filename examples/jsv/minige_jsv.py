"""Write JSVs in Python: a small helper on top of minige's JSV codec (stdlib only).

Import it by path (``sys.path.insert(0, "<dir of this file>")``) and call
:func:`main` with your callbacks::

    import minige_jsv

    def on_verify(jsv: minige_jsv.Jsv) -> None:
        if not jsv.sub_is_param("l_hard", "h_rt"):
            jsv.sub_add_param("l_hard", "h_rt", "1:0:0")
            jsv.correct("h_rt set to the site default")
        else:
            jsv.accept()

    minige_jsv.main(on_verify)

The method names follow Grid Engine's shell library (``jsv_get_param`` is
``jsv.get_param`` ...). The same script works as a client JSV (``qsub -jsv``)
and as the server JSV (``jsv_url``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import qmaster.jsv.jsv_side  # noqa: F401
except ImportError:  # running from a checkout without minige installed
    sys.path.insert(0, _ROOT)

from qmaster.jsv.errors import JsvProtocolError  # noqa: E402
from qmaster.jsv.jsv_side import Begin, Env, Param, Quit, ScriptConnection, Start  # noqa: E402
from qmaster.jsv.protocol import NEED_DATA  # noqa: E402

Callback = Callable[["Jsv"], None]


class Jsv:
    """The job being verified, and the replies queued for the client/qmaster."""

    def __init__(self) -> None:
        self.conn = ScriptConnection()
        self.params: dict[str, str] = {}
        self.env: dict[str, str] = {}
        self.out: list[bytes] = []
        self._want_env = False
        self._decided = False

    # -- parameters --------------------------------------------------------
    def is_param(self, name: str) -> bool:
        """True when the job has this parameter."""
        return name in self.params

    def get_param(self, name: str) -> str:
        """The parameter's text value ("" when absent)."""
        return self.params.get(name, "")

    def set_param(self, name: str, value: str) -> None:
        """Change a parameter (takes effect with correct())."""
        self.params[name] = value
        self.out.append(self.conn.param(name, value))

    def del_param(self, name: str) -> None:
        """Remove a parameter (takes effect with correct())."""
        if self.params.pop(name, None) is not None:
            self.out.append(self.conn.param(name, ""))

    def _sub(self, name: str) -> list[tuple[str, str | None]]:
        items: list[tuple[str, str | None]] = []
        for part in filter(None, self.get_param(name).split(",")):
            key, sep, val = part.partition("=")
            items.append((key, val if sep else None))
        return items

    def _set_sub(self, name: str, items: list[tuple[str, str | None]]) -> None:
        self.set_param(name, ",".join(k if v is None else f"{k}={v}" for k, v in items))

    def sub_is_param(self, name: str, key: str) -> bool:
        """True when the list parameter (l_hard, ac, q_hard, M ...) holds ``key``."""
        return any(k == key for k, _ in self._sub(name))

    def sub_get_param(self, name: str, key: str) -> str:
        """The value of ``key`` inside a list parameter ("" when none)."""
        return next((v or "" for k, v in self._sub(name) if k == key), "")

    def sub_add_param(self, name: str, key: str, value: str = "") -> None:
        """Add ``key[=value]`` to a list parameter, or replace its value."""
        items = self._sub(name)
        new = (key, value or None)
        if any(k == key for k, _ in items):
            items = [new if k == key else (k, v) for k, v in items]
        else:
            items.append(new)
        self._set_sub(name, items)

    def sub_del_param(self, name: str, key: str) -> None:
        """Drop ``key`` from a list parameter."""
        if self.is_param(name):
            self._set_sub(name, [(k, v) for k, v in self._sub(name) if k != key])

    # -- environment ---------------------------------------------------------
    def send_env(self) -> None:
        """Ask for the job environment (call it in on_start)."""
        self._want_env = True

    def get_env(self, name: str) -> str:
        """A job environment variable ("" when absent or not requested)."""
        return self.env.get(name, "")

    def is_env(self, name: str) -> bool:
        """True when the job environment has ``name``."""
        return name in self.env

    def add_env(self, name: str, value: str = "") -> None:
        """Add a job environment variable."""
        self.env[name] = value
        self.out.append(self.conn.env("ADD", name, value))

    def mod_env(self, name: str, value: str = "") -> None:
        """Change a job environment variable."""
        self.env[name] = value
        self.out.append(self.conn.env("MOD", name, value))

    def del_env(self, name: str) -> None:
        """Remove a job environment variable."""
        self.env.pop(name, None)
        self.out.append(self.conn.env("DEL", name))

    # -- results and logging -------------------------------------------------
    def _result(self, state: str, message: str) -> None:
        self._decided = True
        self.out.append(self.conn.result(state, message))

    def accept(self, message: str = "") -> None:
        """Accept the job as submitted (changes made so far are dropped)."""
        self._result("ACCEPT", message)

    def correct(self, message: str = "") -> None:
        """Accept the job with the changes made by set_param/sub_*/env calls."""
        self._result("CORRECT", message)

    def reject(self, message: str = "") -> None:
        """Reject the job; ``message`` is what the submitter sees."""
        self._result("REJECT", message)

    def reject_wait(self, message: str = "") -> None:
        """Reject the job for now; it may be accepted later."""
        self._result("REJECT_WAIT", message)

    def log_info(self, message: str) -> None:
        """An INFO line (qsub prints it; the qmaster logs it)."""
        self.out.append(self.conn.log("INFO", message))

    def log_warning(self, message: str) -> None:
        """A WARNING line."""
        self.out.append(self.conn.log("WARNING", message))

    def log_error(self, message: str) -> None:
        """An ERROR line."""
        self.out.append(self.conn.log("ERROR", message))


def main(
    on_verify: Callback, on_start: Callback | None = None, stdin: int = 0, stdout: int = 1
) -> None:
    """Run the JSV loop until QUIT or end of input."""
    jsv = Jsv()
    while True:
        try:
            event = jsv.conn.next_event()
        except JsvProtocolError as exc:
            jsv.out.append(jsv.conn.error(str(exc)))
            continue
        if event is NEED_DATA:
            if jsv.out:
                os.write(stdout, b"".join(jsv.out))
                jsv.out.clear()
            jsv.conn.receive_data(os.read(stdin, 65536))
        elif isinstance(event, Quit):
            break
        else:
            _dispatch(jsv, event, on_verify, on_start)
    if jsv.out:
        os.write(stdout, b"".join(jsv.out))


def _dispatch(jsv: Jsv, event: object, on_verify: Callback, on_start: Callback | None) -> None:
    if isinstance(event, Start):
        jsv.params.clear()
        jsv.env.clear()
        jsv._want_env = False
        if on_start is not None:
            on_start(jsv)
        jsv.out.append(jsv.conn.started(jsv._want_env))
    elif isinstance(event, Param):
        jsv.params[event.name] = event.value
    elif isinstance(event, Env):
        jsv.env[event.name] = event.value
    elif isinstance(event, Begin):
        jsv._decided = False
        on_verify(jsv)
        if not jsv._decided:
            jsv.accept()
