"""A job submitted with ``-w e`` or ``-w w`` that has to wait is scheduled when room frees up."""

from __future__ import annotations

import pytest

from tests.unit.core.helpers import T0, make_core, run_until, states, submit, texts


@pytest.mark.parametrize("mode", ["e", "w"])
def test_verified_job_that_waits_runs_later(mode: str) -> None:
    """The scheduler's picture of the job belongs to its id, not to the verification's id 0."""
    core = make_core()
    submit(core, CMDARGS=["10"], pe_name="mpi", pe_min=16, pe_max=16)
    run_until(core, T0)
    assert states(core) == {"1": "r"}
    out = submit(core, CMDARGS=["10"], verify=mode)
    assert texts(out) == ['Your job 2 ("job.sh") has been submitted']
    run_until(core, T0 + 1)
    assert states(core, T0 + 1) == {"1": "r", "2": "qw"}
    run_until(core, T0 + 12)
    assert states(core, T0 + 12) == {"2": "r"}
