"""What every command does around its work, with no click in it.

Grid Engine's behaviour on ``--version``, ``-help``, a bad command line
(:class:`ClientError`) and an unreachable qmaster (:class:`GdiError`) is the
same for every command (see :mod:`clients.common.shell`). It lives here,
apart from click, so that a command parsing its own command line (``qsub``)
runs without importing click: its start is part of every submission's round
trip (click and what it pulls in, ``inspect`` above all, were about a fifth of
a ``qsub`` process's CPU).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from clients.common.conventions import asks_for_version, report, show_help, show_version
from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, err
from qmaster.gdi import client as gdi_client
from qmaster.gdi.client import GdiError, Reply

Transport = Callable[[str, dict[str, Any]], Reply]


def default_transport(op: str, args: dict[str, Any]) -> Reply:
    """Send one request to the cell's qmaster (looked up at call time: tests patch it)."""
    return gdi_client.call(op, args)


def guarded(
    name: str,
    usage_text: str,
    args: Sequence[str],
    asks_for_help: Callable[[Sequence[str]], bool],
    work: Callable[[], int],
) -> int:
    """Run ``work`` as command ``name`` does: version, help, then its errors as Grid Engine
    reports them; the exit code."""
    if asks_for_version(args):
        return show_version()
    if asks_for_help(args):
        return show_help(name, usage_text)
    try:
        return work()
    except ClientError as exc:
        return report(name, usage_text, exc)
    except GdiError as exc:
        err(f"error: {exc}")
        return EXIT_ERROR


def without_end_of_options(args: Sequence[str]) -> list[str]:
    """The words a command taking every word as it comes sees: all but the first ``--``
    (the end of options, which click's parser drops and commands ran behind it)."""
    words = list(args)
    if "--" in words:
        words.remove("--")
    return words
