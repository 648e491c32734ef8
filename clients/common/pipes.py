"""A command whose reader went away (``qstat | head``) ends quietly, as Grid Engine's do.

Grid Engine's commands are C programs: writing to a closed pipe kills them with SIGPIPE,
with no message. Python turns that signal into :class:`BrokenPipeError` and prints a
traceback (or "Exception ignored" at exit). :func:`closes_quietly` wraps a command's
``main``: on a broken stdout it drops what is still buffered and, when run as the command
itself (no ``argv`` given), ends the process by SIGPIPE like the C command; called from
Python with ``argv``, it returns 1 instead of killing its caller.

SIGPIPE is not simply restored to its default at start: the commands' own socket to the
qmaster must keep raising an error, which they report as Grid Engine's do.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., int])

EXIT_ERROR = 1


def _drop_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush has nowhere to fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def closes_quietly(main: F) -> F:
    """Wrap a command's ``main`` so a closed stdout ends it without a traceback."""

    @functools.wraps(main)
    def run(*args: Any, **kwargs: Any) -> int:
        try:
            code = main(*args, **kwargs)
            sys.stdout.flush()
        except BrokenPipeError:
            _drop_stdout()
            if not args and kwargs.get("argv") is None:
                signal.signal(signal.SIGPIPE, signal.SIG_DFL)
                os.kill(os.getpid(), signal.SIGPIPE)
            return EXIT_ERROR
        return code

    return run  # type: ignore[return-value]
