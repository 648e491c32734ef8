"""Which refusal a submission with two faults hears: Grid Engine's order of checks."""

from __future__ import annotations

import pytest

from tests.unit.core.helpers import make_core, set_global, submit, texts


@pytest.mark.parametrize(
    ("limits", "spec", "verify", "first"),
    [
        ({}, {"pe_name": "nope", "pe_min": 1, "pe_max": 1, "ckpt": "nock"}, "n",
         'job rejected: the requested parallel environment "nope" does not exist'),
        ({}, {"q_hard": ["nosuch.q"], "P": "nosuchprj"}, "n",
         'job was rejected because job requests unknown queue "nosuch.q"'),
        ({}, {"p": 10, "ar": 77}, "n", "the advance reservation id 77 is invalid"),
        ({}, {"p": 10}, "v", "verification: found suitable queue(s)"),  # never checked
        ({}, {"A": "a:b", "N": "1x"}, "n", "Colon (':') not allowed in objectname"),
        ({"max_u_jobs": "1"}, {"pe_name": "nope", "pe_min": 1, "pe_max": 1}, "n",
         "job rejected: Only 1 jobs are allowed per user (current job count: 1)"),
        ({"max_jobs": "1"}, {}, "v", "job rejected: Only 1 jobs are allowed per cluster"),
    ],
)  # fmt: skip
def test_a_submission_with_two_faults_hears_grid_engines_first(
    limits: dict[str, str], spec: dict[str, object], verify: str, first: str
) -> None:
    """sge_job_verify_adjust()'s order: account before name; after the number max_jobs (even
    for -w v) and max_u_jobs, resources, queues, PE, ckpt, project, AR, -w, then priority."""
    core = make_core()
    if limits:
        set_global(core, **limits)
        submit(core, h=True)
    assert texts(submit(core, verify=verify, **spec)) == [first]
