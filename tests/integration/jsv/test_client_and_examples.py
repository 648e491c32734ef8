"""Client JSVs (qsub side) and the shipped example JSVs as real processes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from qmaster.jsv.client import jsv_timeout, run_client_jsvs
from qmaster.jsv.pool import JsvPool
from qmaster.jsv.protocol import JsvContext, ResultState

from .conftest import EXAMPLES, write_script

SHELL = str(EXAMPLES / "jsv.sh")
SHELL_INCLUDE = EXAMPLES / "jsv_include.sh"
PYTHON = str(EXAMPLES / "example_jsv.py")
CTX = JsvContext(user="alice", group="staff", job_id=3)


def submit(spec: dict[str, Any], scripts: list[str], **kw: Any) -> Any:
    """Run the client JSV chain the way qsub does."""
    return run_client_jsvs(
        spec, scripts, user="alice", group="staff", cmdname="job.sh", cmdargs=["60"], **kw
    )


@pytest.mark.parametrize("script", [SHELL, PYTHON])
def test_example_adds_default_h_rt_as_client_jsv(script: str) -> None:
    """A job without h_rt gets the site default and keeps its other requests.

    As in Grid Engine, the CORRECT result's own message is not shown to the submitter.
    """
    outcome = submit({"l_hard": {"mem_free": "1G"}}, [script])
    assert outcome.accepted
    assert outcome.spec["l_hard"] == {"mem_free": "1G", "h_rt": "1:0:0"}
    assert outcome.spec["CMDARGS"] == ["60"]
    assert "h_rt set to the site default" not in outcome.messages


@pytest.mark.parametrize("script", [SHELL, PYTHON])
def test_example_rejects_too_large_pe(script: str) -> None:
    """Asking for more than 16 slots is rejected with the JSV's message."""
    outcome = submit({"pe_name": "mpi", "pe_min": 4, "pe_max": 64}, [script])
    assert not outcome.accepted
    assert outcome.message == "parallel jobs may use at most 16 slots"
    assert outcome.state is ResultState.REJECT


@pytest.mark.parametrize("script", [SHELL, PYTHON])
def test_example_accepts_a_job_that_follows_the_rules(script: str) -> None:
    """A job with h_rt and a small PE passes unchanged."""
    spec = {"l_hard": {"h_rt": "600"}, "pe_name": "mpi", "pe_min": 2, "pe_max": 4}
    outcome = submit(spec, [script])
    assert outcome.accepted
    assert outcome.state is ResultState.ACCEPT
    assert outcome.spec["l_hard"] == {"h_rt": "600"}


def test_chain_passes_corrections_on_and_stops_at_first_rejection(tmp_path: Path) -> None:
    """Each JSV sees the previous one's corrections; a rejection ends the chain."""
    raise_pe = write_script(
        tmp_path / "raise.sh",
        f'#!/bin/sh\n. "{EXAMPLES / "jsv_include.sh"}"\njsv_on_start() {{ return; }}\n'
        "jsv_on_verify() { jsv_set_param pe_max 32; jsv_correct; }\njsv_main\n",
    )
    outcome = submit({"pe_name": "mpi", "pe_min": 4, "pe_max": 8}, [raise_pe, PYTHON, SHELL])
    assert not outcome.accepted
    assert outcome.message == "parallel jobs may use at most 16 slots"


def test_python_example_rejects_for_now_with_reject_wait() -> None:
    """REJECT_WAIT reaches the submitter with the JSV's text."""
    outcome = submit({"A": "none"}, [PYTHON])
    assert outcome.state is ResultState.REJECT_WAIT
    assert outcome.message == "account none is closed until the next billing period"


def test_client_jsv_hang_is_rejected_after_two_timeouts(tmp_path: Path) -> None:
    """A hung client JSV costs two timeouts, then GE's no-response text."""
    hang = write_script(tmp_path / "hang.sh", "#!/bin/sh\nsleep 30\n")
    began = time.monotonic()
    outcome = submit({}, [hang], timeout=0.3)
    assert outcome.message == f'got no response from JSV script "{hang}"'
    assert time.monotonic() - began < 3.0


def test_client_url_with_user_is_refused() -> None:
    """Client JSV URLs may not name a user."""
    outcome = submit({}, [f"script:root@{SHELL}"])
    assert outcome.message == "specifying user is not allowed in client JSV URLs"


def test_sge_jsv_timeout_env_var() -> None:
    """SGE_JSV_TIMEOUT sets the client timeout; bad or non-positive values mean 10 s."""
    assert jsv_timeout({"SGE_JSV_TIMEOUT": "2.5"}) == 2.5
    assert jsv_timeout({"SGE_JSV_TIMEOUT": "0"}) == 10.0
    assert jsv_timeout({"SGE_JSV_TIMEOUT": "soon"}) == 10.0


def test_client_jsv_never_imports_asyncio_or_pydantic() -> None:
    """qsub's JSV path stays on the standard library."""
    import subprocess
    import sys

    code = (
        "import sys, qmaster.jsv.client;"
        "print(sorted(m for m in ('asyncio','pydantic','structlog') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("script", [SHELL, PYTHON])
async def test_examples_work_as_server_jsv(script: str) -> None:
    """The same example scripts serve many jobs in the qmaster pool."""
    pool = JsvPool(script, size=2, timeout=5.0)
    await pool.start()
    try:
        good = await pool.verify({"CMDNAME": "a.sh", "l_hard": {"h_rt": "60"}}, CTX)
        fixed = await pool.verify({"CMDNAME": "a.sh"}, CTX)
        big = await pool.verify({"CMDNAME": "a.sh", "pe_name": "mpi", "pe_max": 99}, CTX)
    finally:
        await pool.close()
    assert good.state is ResultState.ACCEPT
    assert fixed.spec["l_hard"] == {"h_rt": "1:0:0"}
    assert big.message == "parallel jobs may use at most 16 slots"


def test_client_jsv_writing_to_stderr_rejects_the_job(tmp_path: Path) -> None:
    """As in Grid Engine, any stderr output of a client JSV rejects the job, naming the line."""
    script = tmp_path / "noisy.sh"
    script.write_text(
        f'#!/bin/sh\n. "{SHELL_INCLUDE}"\n'
        "jsv_on_start() { return; }\n"
        'jsv_on_verify() { echo "first" >&2; echo "(standard_in) 1: syntax error" >&2; jsv_accept; }\n'
        "jsv_main\n"
    )
    script.chmod(0o755)
    outcome = submit({}, [str(script)])
    assert not outcome.accepted
    assert outcome.message == "JSV stderr is - (standard_in) 1: syntax error"


def test_client_jsv_dying_after_stderr_shows_the_text(tmp_path: Path) -> None:
    """A client JSV that writes to stderr and dies is reported with its stderr line, not a timeout."""
    script = tmp_path / "dies.sh"
    script.write_text(
        "#!/bin/sh\nread line\necho STARTED\n"
        'while read line; do [ "$line" = BEGIN ] && break; done\n'
        'echo "fatal: policy database unreachable" >&2\nexit 3\n'
    )
    script.chmod(0o755)
    started = time.monotonic()
    outcome = submit({}, [str(script)])
    assert not outcome.accepted
    assert outcome.message == "JSV stderr is - fatal: policy database unreachable"
    assert time.monotonic() - started < 10  # no timeout (10 s) was waited for
