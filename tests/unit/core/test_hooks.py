"""The core's steps reach their handlers through one explicit table, filled at import."""

from __future__ import annotations

from qmaster.core import arlife, lifecycle, runlog
from qmaster.core.registry import HOOKS


def test_each_timer_kind_reaches_its_handler() -> None:
    """AR timers go to arlife, every other kind to lifecycle; the pass and recovery are set."""
    assert HOOKS.timer("ar_start") is arlife.fire
    assert HOOKS.timer("ar_end") is arlife.fire
    assert HOOKS.timer("end") is lifecycle.fire
    assert HOOKS.timer("qcal") not in (arlife.fire, lifecycle.fire)
    assert HOOKS.run_pass is runlog.run_pass  # lifecycle's, and qconf -tsm's run log
    assert HOOKS.restore_ars is arlife.restore
