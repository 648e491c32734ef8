"""The server JSV inside the running daemon: verdicts, a hung JSV, qalter policy, REJECT_WAIT."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from tests.integration.live import LiveDaemon, job, wait_for

pytestmark = pytest.mark.timeout(90)

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "jsv" / "example_jsv.py"

# Rejects jobs named "forbidden", hangs on "hang", asks to wait once for "later".
POLICY = r"""#!/bin/sh
. "{include}"
jsv_on_start() {{ return; }}
jsv_on_verify() {{
   case "`jsv_get_param N`" in
      forbidden) jsv_reject "name forbidden by policy"; return ;;
      hang) sleep 60 ;;
      later)
         if [ -f "{marker}" ]; then jsv_accept; return; fi
         touch "{marker}"; jsv_reject_wait "come back later"; return ;;
   esac
   jsv_accept
}}
jsv_main
"""


def set_global(live: LiveDaemon, **values: str) -> None:
    """Change keys of the global configuration through qconf's own ops."""
    text = live.call("conf_show", {"kind": "global", "name": None}).data["text"]
    for key, value in values.items():
        text = re.sub(rf"^{key}\s+.*$", f"{key} {value}", text, flags=re.M)
    reply = live.call("conf_modify", {"kind": "global", "text": text, "source": "test"})
    assert reply.ok, reply.answers


@pytest.fixture
def policy_jsv(tmp_path: Path) -> Path:
    script = tmp_path / "policy.sh"
    include = EXAMPLE.parent / "jsv_include.sh"
    script.write_text(POLICY.format(include=include, marker=tmp_path / "seen-later"))
    script.chmod(0o755)
    return script


def texts(reply) -> list[str]:
    return [a.text for a in reply.answers]


def test_example_jsv_corrects_and_rejects_submissions(live: LiveDaemon) -> None:
    """With the Python example as server JSV, h_rt is added (stored in seconds), 32 slots refused."""
    set_global(live, jsv_url=str(EXAMPLE))
    ok = live.call("submit", job("1"))
    assert ok.ok, ok.answers
    detail = live.call("job_detail", {"job_ids": [str(ok.data["job_id"])]}).data["jobs"][0]
    assert detail["job"]["l_hard"] == {"h_rt": "3600"}
    refused = live.call("submit", job("1", pe_name="mpi", pe_min=32, pe_max=32))
    assert texts(refused) == ["parallel jobs may use at most 16 slots"]
    assert not refused.ok


def test_hung_jsv_does_not_block_other_requests(live: LiveDaemon, policy_jsv: Path) -> None:
    """While one submission hangs in the JSV, queries and other submissions are answered."""
    set_global(live, jsv_url=str(policy_jsv), qmaster_params="jsv_timeout=1")
    result: list = []
    started = time.monotonic()
    hung = threading.Thread(target=lambda: result.append(live.call("submit", job("1", N="hang"))))
    hung.start()
    time.sleep(0.2)
    t0 = time.monotonic()
    assert live.call("job_list", {}).ok
    assert live.call("submit", job("1", N="fine")).ok
    assert time.monotonic() - t0 < 1.0
    hung.join(30)
    assert texts(result[0]) == [f'got no response from JSV script "{policy_jsv}"']
    assert time.monotonic() - started >= 2.0  # timed out, restarted, tried once more


def test_jsv_allowed_mod_limits_qalter(live: LiveDaemon, policy_jsv: Path) -> None:
    """qalter may change only what jsv_allowed_mod lists; the rest is refused in GE's words."""
    set_global(live, jsv_url=str(policy_jsv), jsv_allowed_mod="N,h")
    job_id = live.call("submit", job("100", h=True)).data["job_id"]
    refused = live.call("alter", {"job_ids": [str(job_id)], "job": {"l_hard": {"h_rt": "10"}}})
    assert texts(refused) == [
        "rejected due to jsv_allowed_mod configuration which does not allow: l_hard"
    ]
    allowed = live.call("alter", {"job_ids": [str(job_id)], "job": {"N": "renamed"}})
    assert texts(allowed) == [f"modified job name of job {job_id}"]


def test_altered_job_is_verified_again(live: LiveDaemon, policy_jsv: Path) -> None:
    """A qalter that would make the job break the policy is refused by the server JSV."""
    set_global(live, jsv_url=str(policy_jsv), jsv_allowed_mod="N,h")
    job_id = live.call("submit", job("100", h=True)).data["job_id"]
    reply = live.call("alter", {"job_ids": [str(job_id)], "job": {"N": "forbidden"}})
    assert texts(reply) == ["name forbidden by policy"]
    detail = live.call("job_detail", {"job_ids": [str(job_id)]}).data["jobs"][0]
    assert detail["job"]["N"] == "sleep"


def test_no_modification_when_allowed_mod_is_none(live: LiveDaemon, policy_jsv: Path) -> None:
    """jsv_allowed_mod none forbids every qalter while a server JSV is configured."""
    set_global(live, jsv_url=str(policy_jsv), jsv_allowed_mod="none")
    job_id = live.call("submit", job("100", h=True)).data["job_id"]
    reply = live.call("alter", {"job_ids": [str(job_id)], "job": {"N": "x"}})
    assert texts(reply) == ["No job modification allowed due to jsv_allowed_mod configuration"]


def test_reject_wait_refuses_by_default(live: LiveDaemon, policy_jsv: Path) -> None:
    """As in Grid Engine, REJECT_WAIT refuses the submission with the JSV's message."""
    set_global(live, jsv_url=str(policy_jsv))
    reply = live.call("submit", job("1", N="later"))
    assert texts(reply) == ["come back later"]
    assert live.call("job_list", {}).data["jobs"] == []


def test_reject_wait_can_keep_the_job_waiting(live: LiveDaemon, policy_jsv: Path) -> None:
    """With jsv_reject_wait_retries the job waits as vqw and runs once the JSV accepts it."""
    set_global(
        live, jsv_url=str(policy_jsv), jsv_reject_wait_retries="3", jsv_reject_wait_backoff="1"
    )
    reply = live.call("submit", job("100", N="later"))
    assert reply.ok
    assert "come back later" in texts(reply)[0]
    job_id = reply.data["job_id"]
    states = lambda: {r["job_id"]: r["state"] for r in live.call("job_list", {}).data["jobs"]}  # noqa: E731
    assert states()[job_id] == "vqw"
    wait_for(lambda: states().get(job_id) == "r", timeout=10, what="the verified job to run")
