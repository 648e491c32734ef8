"""The server JSV as the core's effect, in a running daemon: what a client waiting for it sees."""

from __future__ import annotations

import getpass
import threading
from pathlib import Path

import pytest

from tests.integration.jsv.test_daemon_jsv import POLICY, set_global, texts
from tests.integration.live import LiveDaemon, job

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def policy_jsv(tmp_path: Path) -> Path:
    script = tmp_path / "policy.sh"
    include = Path(__file__).resolve().parents[3] / "examples" / "jsv" / "jsv_include.sh"
    script.write_text(POLICY.format(include=include, marker=tmp_path / "seen-later"))
    script.chmod(0o755)
    return script


def _names(live: LiveDaemon, ids: list[int]) -> list[str]:
    jobs = live.call("job_detail", {"job_ids": [str(i) for i in ids]}).data["jobs"]
    return [d["job"]["N"] for d in jobs]


def test_qalter_u_with_a_server_jsv_alters_the_users_jobs(
    live: LiveDaemon, policy_jsv: Path
) -> None:
    """qalter -u me -N x with a server JSV renames every job of mine, each verified."""
    set_global(live, jsv_url=str(policy_jsv), jsv_allowed_mod="N,h")
    ids = [live.call("submit", job("100", h=True)).data["job_id"] for _ in range(2)]
    reply = live.call("alter", {"job_ids": [], "users": [getpass.getuser()], "job": {"N": "x"}})
    assert texts(reply) == [f"modified job name of job {i}" for i in ids]
    refused = live.call(
        "alter", {"job_ids": [], "users": [getpass.getuser()], "job": {"N": "forbidden"}}
    )
    assert texts(refused) == ["name forbidden by policy"] * 2
    assert _names(live, ids) == ["x", "x"]


def test_each_job_of_a_qalter_gets_its_own_verdict_in_order(
    live: LiveDaemon, policy_jsv: Path
) -> None:
    """qalter of a job, an unknown one and another: one reply, its answers in that order."""
    set_global(live, jsv_url=str(policy_jsv), jsv_allowed_mod="N,h")
    first, second = (live.call("submit", job("100", h=True)).data["job_id"] for _ in range(2))
    refs = [str(first), "9999", str(second)]
    reply = live.call("alter", {"job_ids": refs, "job": {"N": "y"}})
    assert texts(reply) == [
        f"modified job name of job {first}",
        'denied: job "9999" does not exist',
        f"modified job name of job {second}",
    ]


def test_job_ids_stay_unique_while_submissions_wait_for_the_jsv(
    live: LiveDaemon, policy_jsv: Path
) -> None:
    """Submissions in flight together each get an id of their own, allocated by the core."""
    set_global(live, jsv_url=str(policy_jsv))
    replies: list[object] = []
    threads = [
        threading.Thread(target=lambda: replies.append(live.call("submit", job("1"))))
        for _ in range(6)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    ids = sorted(r.data["job_id"] for r in replies)  # type: ignore[attr-defined]
    assert ids == list(range(1, 7))


def test_a_client_waiting_for_the_jsv_is_told_when_the_core_is_rebuilt(
    live: LiveDaemon, policy_jsv: Path
) -> None:
    """The core is rebuilt from the spool while a submission waits for the JSV: the client
    gets an error at once (not silence), nothing is stored, and the daemon goes on."""
    set_global(live, jsv_url=str(policy_jsv), qmaster_params="jsv_timeout=20")
    result: list[object] = []
    waiting = threading.Thread(
        target=lambda: result.append(live.call("submit", job("1", N="hang")))
    )
    waiting.start()
    assert live.loop is not None
    for _ in range(100):  # until the core asked the JSV
        if live.daemon.core.verifications.requests:
            break
        threading.Event().wait(0.05)
    live.loop.call_soon_threadsafe(live.daemon._reload)
    waiting.join(10)
    assert not waiting.is_alive()
    reply = result[0]
    assert texts(reply) == ["job verification was interrupted: the qmaster reloaded its state"]
    assert live.call("job_list", {}).data["jobs"] == []
    assert live.call("submit", job("1", N="fine")).ok


def test_qsub_w_v_is_answered_before_the_server_jsv(live: LiveDaemon, policy_jsv: Path) -> None:
    """The policy JSV refuses the name 'forbidden'; -w v of such a job is answered by the
    qmaster's verification, as sge_gdi_add_job() answers it before the JSV is asked."""
    set_global(live, jsv_url=str(policy_jsv))
    reply = live.call("submit", {**job("1", N="forbidden"), "verify": "v"})
    assert texts(reply) == ["verification: found suitable queue(s)"]
    assert texts(live.call("submit", job("1", N="forbidden"))) == ["name forbidden by policy"]
