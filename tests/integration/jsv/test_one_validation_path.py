"""A value a JSV sets is checked exactly as the same value typed on qsub's command line."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from clients.qstat_render.detail import render_detail
from clients.submit.build import SubmitRequest
from clients.submit.grammar import ParseContext, SubmitState, apply_tokens
from clients.submit.jsv_run import apply_client_jsvs
from qmaster.gdi.values import ValueRefused
from tests.integration.jsv.conftest import write_script
from tests.integration.jsv.test_daemon_jsv import EXAMPLE, set_global, texts
from tests.integration.live import LiveDaemon, job, wait_for

pytestmark = pytest.mark.timeout(90)

SETTER = r"""#!/bin/sh
. "{include}"
jsv_on_start() {{ return; }}
jsv_on_verify() {{
{body}
   jsv_correct
}}
jsv_main
"""


def setter(tmp_path: Path, *lines: str) -> str:
    """A shell JSV (on the shipped library) that runs ``lines`` and then corrects the job."""
    include = EXAMPLE.parent / "jsv_include.sh"
    body = "\n".join(f"   {line}" for line in lines)
    return write_script(tmp_path / "setter.sh", SETTER.format(include=include, body=body))


def typed_error(*argv: str) -> str:
    """What qsub says when ``argv`` is typed on its command line."""
    year = time.localtime().tm_year
    with pytest.raises(ValueRefused) as info:
        apply_tokens(list(argv), SubmitState(), ParseContext({}, "/", year), allow_script=False)
    return info.value.message


@pytest.mark.parametrize(
    ("param", "value", "argv"),
    [("a", "troete", ["-a", "troete"]), ("p", "5000", ["-p", "5000"]), ("m", "q", ["-m", "q"])],
)
def test_server_jsv_bad_value_rejects_with_qsubs_text(
    live: LiveDaemon, tmp_path: Path, param: str, value: str, argv: list[str]
) -> None:
    """A server JSV's PARAM a troete rejects the job with qsub -a troete's own message."""
    set_global(live, jsv_url=setter(tmp_path, f"jsv_set_param {param} {value}"))
    reply = live.call("submit", job("1"))
    assert not reply.ok
    assert texts(reply) == [typed_error(*argv)]
    assert live.call("job_list", {}).data["jobs"] == []


def test_server_jsv_setting_a_pe_gets_a_one_slot_range(live: LiveDaemon, tmp_path: Path) -> None:
    """A server JSV adding pe_name to a job without -pe makes a 1-slot PE job qstat -j shows."""
    set_global(live, jsv_url=setter(tmp_path, "jsv_set_param pe_name mpi"))
    reply = live.call("submit", job("1"))
    assert reply.ok, reply.answers
    detail = live.call("job_detail", {"job_ids": [str(reply.data["job_id"])]}).data["jobs"][0]
    assert (detail["job"]["pe_name"], detail["job"]["pe_min"], detail["job"]["pe_max"]) == (
        "mpi",
        1,
        1,
    )
    assert re.search(r"parallel environment:  mpi range: 1\n", render_detail(detail))


def test_client_jsv_bad_value_fails_as_typed(tmp_path: Path) -> None:
    """A client JSV's PARAM a troete ends qsub with qsub -a troete's own message."""
    script = setter(tmp_path, "jsv_set_param a troete")
    request = SubmitRequest({"CMDNAME": "sleep", "b": True, "N": "x"}, jsv_scripts=[script])
    with pytest.raises(ValueRefused) as info:
        apply_client_jsvs(request, "qsub", rejected_prefix="Unable to run job: ")
    assert info.value.message == typed_error("-a", "troete")


def test_client_jsv_pe_is_completed(tmp_path: Path) -> None:
    """A client JSV adding pe_name sends a job with the 1-slot range a typed -pe would have."""
    script = setter(tmp_path, "jsv_set_param pe_name mpi")
    request = SubmitRequest({"CMDNAME": "sleep", "b": True, "N": "x"}, jsv_scripts=[script])
    apply_client_jsvs(request, "qsub", rejected_prefix="Unable to run job: ")
    assert (request.spec["pe_min"], request.spec["pe_max"]) == (1, 1)


def test_client_jsv_sees_and_sets_w(tmp_path: Path) -> None:
    """A client JSV is sent qsub's -w mode as w and may change it; w is never sent as a job key."""
    script = setter(
        tmp_path, '[ "`jsv_get_param w`" = e ] || jsv_reject "no w"', "jsv_set_param w v"
    )
    spec = {"CMDNAME": "sleep", "b": True, "N": "x"}
    request = SubmitRequest(spec, verify="e", jsv_scripts=[script])
    apply_client_jsvs(request, "qsub", rejected_prefix="Unable to run job: ")
    assert request.verify == "v"
    assert "w" not in request.spec


def test_late_correction_with_a_bad_value_deletes_the_waiting_job(
    live: LiveDaemon, tmp_path: Path
) -> None:
    """A job waiting for verification that the JSV later corrects to p 5000 is rejected, not run."""
    marker = tmp_path / "seen"
    script = setter(
        tmp_path,
        f'if [ ! -f "{marker}" ]; then touch "{marker}"; jsv_reject_wait later; return; fi',
        "jsv_set_param p 5000",
    )
    set_global(live, jsv_url=script, jsv_reject_wait_retries="2", jsv_reject_wait_backoff="1")
    reply = live.call("submit", job("100"))
    assert reply.ok, reply.answers
    job_id = reply.data["job_id"]
    wait_for(
        lambda: job_id not in {r["job_id"] for r in live.call("job_list", {}).data["jobs"]},
        timeout=15,
        what="the job to be rejected",
    )


def test_job_waiting_for_verification_is_never_dispatched(live: LiveDaemon, tmp_path: Path) -> None:
    """A vqw job stays pending until the JSV accepts it, however many scheduler passes run."""
    script = setter(tmp_path, "jsv_reject_wait not yet; return")
    set_global(live, jsv_url=script, jsv_reject_wait_retries="5", jsv_reject_wait_backoff="1")
    reply = live.call("submit", job("100"))
    assert reply.ok, reply.answers
    for _ in range(6):
        rows = live.call("job_list", {}).data["jobs"]
        assert [r["state"] for r in rows] == ["vqw"]
        time.sleep(0.5)
