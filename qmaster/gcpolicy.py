"""The daemon's garbage-collector policy: its long-lived state stays out of the collector's walks.

CPython's cyclic collector walks every tracked object of its oldest generation
on each full collection, and starts one whenever that generation has grown by a
quarter. A qmaster holding a million jobs has some ten million such objects: a
full collection then stops the daemon for seconds (at 100,000 jobs a qsub
already waited 350 ms behind one), and does so over and over while jobs pour in.

The objects that survive a full collection are, almost all, the cell's state:
jobs, their specifications and scheduler requests, configuration. None of
them form reference cycles when they go (a deleted job is freed by reference
counting; ``tests/integration/test_gc_policy.py`` checks that the daemon's work
leaves no cycle garbage behind), so right after each full collection the
survivors are frozen (:func:`gc.freeze`): later collections walk only what was
made since, and a frozen object still goes as soon as nothing refers to it.
Recovery freezes the recovered state the same way (:mod:`qmaster.recovery`).
"""

from __future__ import annotations

import gc
from typing import Any


def _after_collection(phase: str, info: dict[str, Any]) -> None:
    """Freeze the survivors of a full collection: every object alive right now."""
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


def install() -> None:
    """Freeze the survivors of every full collection from now on (idempotent)."""
    if _after_collection not in gc.callbacks:
        gc.callbacks.append(_after_collection)


def uninstall() -> None:
    """Stop freezing (the daemon stopped); what is frozen stays so."""
    if _after_collection in gc.callbacks:
        gc.callbacks.remove(_after_collection)
