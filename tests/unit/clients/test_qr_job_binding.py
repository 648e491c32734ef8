"""Jobs and reservations: qsub/qalter -ar reach the JobSpec, qstat -f shows reserved slots."""

from __future__ import annotations

import pytest

from clients.common.errors import ClientError
from clients.qstat_render.text import queue_line
from clients.submit.build import SubmitInputs, build_qalter, build_qsub


def _inputs() -> SubmitInputs:
    files = {"/work/job.sh": "#!/bin/sh\n#$ -ar 3\nsleep 1\n"}
    return SubmitInputs(
        env={"SGE_ROOT": "/cell", "HOME": "/home/alice"},
        cwd="/work",
        year=2026,
        host="submit1",
        read_text=files.get,
    )


def test_qsub_ar_is_an_int_in_the_jobspec() -> None:
    """qsub -ar 12 sends JobSpec key 'ar' as the integer 12, over the script's #$ -ar."""
    assert build_qsub(["-ar", "12", "job.sh"], _inputs()).spec["ar"] == 12
    assert build_qsub(["job.sh"], _inputs()).spec["ar"] == 3


def test_qalter_ar_is_an_int_in_the_jobspec() -> None:
    """qalter -ar 5 7 changes job 7's 'ar' to the integer 5."""
    request = build_qalter(["-ar", "5", "7"], _inputs())
    assert request.spec == {"ar": 5}
    assert request.job_ids == ["7"]


@pytest.mark.parametrize("bad", ["0", "x", "-1", "1.5"])
def test_bad_ar_ids_are_refused(bad: str) -> None:
    """An AR id must be a positive integer."""
    with pytest.raises(ClientError):
        build_qsub(["-ar", bad, "job.sh"], _inputs())


def test_qstat_full_shows_reserved_slots() -> None:
    """The resv/used/tot. column of qstat -f carries the queue's reserved slot count."""
    queue = {
        "name": "all.q@h1",
        "qtype": "BIP",
        "resv": 3,
        "used": 1,
        "total": 8,
        "load_avg": 0.5,
        "arch": "lx-amd64",
        "states": "",
    }
    line = queue_line(queue).splitlines()[1]
    assert line.split()[:3] == ["all.q@h1", "BIP", "3/1/8"]
