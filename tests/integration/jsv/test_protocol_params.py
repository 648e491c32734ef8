"""What the server JSV is sent and what it may set: every jsv(1) parameter, -w, shortcuts."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.jsv.client import run_client_jsvs
from qmaster.jsv.protocol import JsvContext, ResultState, Verdict
from qmaster.jsv.url import parse_jsv_url
from qmaster.jsv.worker import JsvWorker
from tests.integration.jsv.conftest import write_script
from tests.integration.jsv.test_daemon_jsv import set_global, texts
from tests.integration.live import LiveDaemon, job

pytestmark = pytest.mark.timeout(90)

# Records every PARAM/ENV line it is sent, then sends back the lines in REPLY and CORRECTs.
RECORDER = r"""#!/bin/sh
while IFS= read -r line; do
   case "$line" in
      START) echo "SEND ENV"; echo STARTED ;;
      PARAM*|ENV*) printf '%s\n' "$line" >> "{log}" ;;
      BEGIN) cat "{reply}"; echo "RESULT STATE CORRECT" ;;
      QUIT) exit 0 ;;
   esac
done
"""


class Recorder:
    """A raw-protocol server JSV whose input is logged and whose answer is a file."""

    def __init__(self, tmp_path: Path) -> None:
        self.log = tmp_path / "seen.log"
        self.reply = tmp_path / "reply.txt"
        self.reply.write_text("")
        text = RECORDER.format(log=self.log, reply=self.reply)
        self.path = write_script(tmp_path / "recorder.sh", text)

    def answer(self, *lines: str) -> None:
        self.reply.write_text("".join(f"{line}\n" for line in lines))

    def seen(self) -> list[str]:
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        self.log.unlink(missing_ok=True)
        return lines


@pytest.fixture
def recorder(live: LiveDaemon, tmp_path: Path) -> Recorder:
    found = Recorder(tmp_path)
    set_global(live, jsv_url=found.path)
    return found


def detail_of(live: LiveDaemon, job_id: int) -> dict:
    return live.call("job_detail", {"job_ids": [str(job_id)]}).data["jobs"][0]["job"]


def test_server_jsv_is_sent_w_and_may_change_it(live: LiveDaemon, recorder: Recorder) -> None:
    """qsub -w e reaches the JSV as PARAM w e; a JSV setting w v turns it into a verification."""
    reply = live.call("submit", {**job("1"), "verify": "e"})
    assert reply.ok, reply.answers
    assert "PARAM w e" in recorder.seen()
    recorder.answer("PARAM w v")
    reply = live.call("submit", job("1"))
    assert texts(reply) == ["verification: found suitable queue(s)"]
    assert len(live.call("job_list", {}).data["jobs"]) == 1


def test_server_jsv_sets_the_newer_qsub_parameters(live: LiveDaemon, recorder: Recorder) -> None:
    """PARAM dl/i/js/tc/hold_jid_ad/c_interval from a JSV are kept in the job, and sent back."""
    user = pwd.getpwuid(os.getuid()).pw_name
    members = {"kind": "userset", "name": "deadlineusers", "members": [user]}
    assert live.call("conf_add", members).ok  # -dl is for deadline users only
    assert live.call("conf_modify", {"kind": "ckpt", "text": "ckpt_name cpr\n", "add": True}).ok
    recorder.answer(
        "PARAM dl 203001011200.00",
        "PARAM i /dev/null",
        "PARAM js 10",
        "PARAM hold_jid_ad 7",
        "PARAM ckpt cpr",
        "PARAM c_interval 00:05:00",
    )
    reply = live.call("submit", job("1", t_min=1, t_max=2))  # -hold_jid_ad needs an array
    assert reply.ok, reply.answers
    stored = detail_of(live, reply.data["job_id"])
    deadline = int(time.mktime((2030, 1, 1, 12, 0, 0, 0, 0, -1)))  # stored as epoch seconds
    assert (stored["dl"], stored["i"], stored["js"]) == (deadline, ["/dev/null"], 10)
    assert (stored["hold_jid_ad"], stored["c_interval"]) == (["7"], 300)
    recorder.seen()
    recorder.answer()
    again = live.call("submit", job("1", js=5, tc=2, dl="203001011200.00"))
    assert again.ok, again.answers
    seen = recorder.seen()
    for line in ("PARAM js 5", "PARAM tc 2", "PARAM dl 203001011200.00"):
        assert line in seen


def test_server_jsv_ckpt_is_kept_and_checked(live: LiveDaemon, recorder: Recorder) -> None:
    """A JSV's PARAM ckpt is not dropped: it is checked as qsub -ckpt is (the object must exist)."""
    recorder.answer("PARAM ckpt nosuch")
    reply = live.call("submit", job("1"))
    assert texts(reply) == [
        'job rejected: the requested checkpointing environment "nosuch" does not exist'
    ]


def test_server_jsv_bad_deadline_is_refused_as_typed(live: LiveDaemon, recorder: Recorder) -> None:
    """A JSV's PARAM dl with a bad date gets qsub -dl's message."""
    recorder.answer("PARAM dl soon")
    reply = live.call("submit", job("1"))
    assert not reply.ok
    assert texts(reply)[0].endswith('ERROR! Wrong date/time format "soon" specified to -dl option')


def test_server_jsv_sees_full_resource_names(live: LiveDaemon, recorder: Recorder) -> None:
    """-l a=x reaches the server JSV as arch=x, so a JSV's arch replaces the user's request."""
    recorder.answer("PARAM l_hard arch=lx-arm64,h_rt=60")
    reply = live.call("submit", job("1", l_hard={"a": "lx-amd64", "h_rt": "60"}))
    assert reply.ok, reply.answers
    assert "PARAM l_hard arch=lx-amd64,h_rt=60" in recorder.seen()
    stored = detail_of(live, reply.data["job_id"])
    assert stored["l_hard"] == {"arch": "lx-arm64", "h_rt": "60"}


@pytest.mark.parametrize(
    ("allowed", "change", "refused_as"),
    [
        ("v", {"V": True, "v": {"A": "1"}}, None),
        ("cwd", {"wd": "/tmp"}, None),
        ("N", {"wd": "/tmp"}, "cwd"),
        ("N", {"V": True, "v": {"A": "1"}}, "v"),
        ("pe_name", {"pe_name": "mpi", "pe_min": 2, "pe_max": 2}, "pe_min"),
        ("pe_name,pe_min", {"pe_name": "mpi", "pe_min": 2, "pe_max": 2}, None),
    ],
)
def test_jsv_allowed_mod_uses_grid_engines_names(
    live: LiveDaemon,
    recorder: Recorder,
    allowed: str,
    change: dict,
    refused_as: str | None,
) -> None:
    """qalter -V is allowed by v and -wd by cwd, as Grid Engine names them in jsv_allowed_mod."""
    set_global(live, jsv_allowed_mod=allowed)
    job_id = live.call("submit", job("100", h=True)).data["job_id"]
    reply = live.call("alter", {"job_ids": [str(job_id)], "job": change})
    if refused_as is None:
        assert reply.ok, reply.answers
    else:
        assert texts(reply) == [
            f"rejected due to jsv_allowed_mod configuration which does not allow: {refused_as}"
        ]


def test_env_control_characters_are_escaped_both_ways(live: LiveDaemon, recorder: Recorder) -> None:
    """ENV values with new lines and tabs reach the JSV escaped (\\n, \\t) and come back whole."""
    recorder.answer("ENV ADD FROM_JSV one\\ttwo\\nthree")
    env = {"MSG": "line1\nline2\tend\r\a\b\v", "PATHISH": "C:\\dir"}
    reply = live.call("submit", job("1", v=env))
    assert reply.ok, reply.answers
    seen = recorder.seen()
    assert "ENV ADD MSG line1\\nline2\\tend\\r\\a\\b\\v" in seen
    assert "ENV ADD PATHISH C:\\dir" in seen
    stored = detail_of(live, reply.data["job_id"])["v"]
    assert stored["MSG"] == env["MSG"]
    assert stored["FROM_JSV"] == "one\ttwo\nthree"


def test_empty_user_in_jsv_url_means_no_user(live: LiveDaemon, tmp_path: Path) -> None:
    """script:@PATH runs the JSV as the daemon's user, for the server and for qsub -jsv."""
    rec = Recorder(tmp_path)
    set_global(live, jsv_url=f"script:@{rec.path}")
    assert live.call("submit", job("1")).ok
    assert "PARAM CMDNAME sleep" in rec.seen()
    outcome = run_client_jsvs(
        {"b": True}, [f"script:@{rec.path}"], user="u", group="g", cmdname="sleep", cmdargs=[]
    )
    assert outcome.accepted, outcome.message
    assert "PARAM CMDNAME sleep" in rec.seen()


WHOAMI = r"""#!/bin/sh
while IFS= read -r line; do
   case "$line" in
      START) echo STARTED ;;
      BEGIN) echo "PARAM ac JSV_USER=`id -un`"; echo "RESULT STATE CORRECT" ;;
      QUIT) exit 0 ;;
   esac
done
"""


@pytest.fixture
def shared_whoami() -> Iterator[str]:
    """The WHOAMI JSV in a directory every user may enter (tmp_path is root's alone)."""
    if os.geteuid() != 0:
        pytest.skip("starting a JSV as another user needs root")
    try:
        pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user nobody on this machine")
    where = Path(tempfile.mkdtemp(prefix="jsv-runas-"))
    where.chmod(0o755)
    try:
        yield write_script(where / "whoami.sh", WHOAMI)
    finally:
        shutil.rmtree(where)


def test_server_jsv_runs_as_the_user_of_its_url(live: LiveDaemon, shared_whoami: str) -> None:
    """jsv_url script:nobody@PATH runs the server JSV as nobody."""
    set_global(live, jsv_url=f"script:nobody@{shared_whoami}")
    reply = live.call("submit", job("1"))
    assert reply.ok, reply.answers
    assert detail_of(live, reply.data["job_id"])["ac"] == {"JSV_USER": "nobody"}


def test_jsv_as_another_user_starts_on_uvloop(shared_whoami: str) -> None:
    """On uvloop (the daemon's loop), a JSV named script:nobody@PATH starts and runs as nobody."""
    import uvloop

    async def verify() -> Verdict:
        worker = JsvWorker(parse_jsv_url(f"script:nobody@{shared_whoami}"))
        try:
            return await worker.verify({"CMDNAME": "x"}, JsvContext("root", "root", "qmaster"))
        finally:
            await worker.close()

    verdict = uvloop.run(verify())
    assert verdict.state is ResultState.CORRECT, verdict.message
    assert verdict.spec["ac"] == {"JSV_USER": "nobody"}


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("java:/opt/jsv", 'type "java" in JSV URL is invalid'),
        ("script:", 'JSV URL "script:" is invalid'),
    ],
)
def test_invalid_jsv_url_is_refused_and_nothing_stored(
    live: LiveDaemon, recorder: Recorder, url: str, message: str
) -> None:
    """qconf -Mconf with a bad jsv_url is refused in Grid Engine's words; the old JSV stays."""
    text = live.call("conf_show", {"kind": "global", "name": None}).data["text"]
    bad = re.sub(r"^jsv_url\s+.*$", f"jsv_url {url}", text, flags=re.M)
    reply = live.call("conf_modify", {"kind": "global", "text": bad, "source": "test"})
    assert not reply.ok
    assert any(message in answer for answer in texts(reply)), texts(reply)
    assert live.call("conf_show", {"kind": "global", "name": None}).data["text"] == text
    assert live.call("submit", job("1")).ok
    assert "PARAM CMDNAME sleep" in recorder.seen()


def test_context_and_client_as_grid_engine_sends_them(live: LiveDaemon, recorder: Recorder) -> None:
    """The server JSV is told CONTEXT server, CLIENT qmaster; a client JSV CONTEXT client, CLIENT qsub."""
    assert live.call("submit", job("1")).ok
    seen = recorder.seen()
    assert seen[:3] == ["PARAM VERSION 1.0", "PARAM CONTEXT server", "PARAM CLIENT qmaster"]
    assert any(line.startswith("PARAM JOB_ID ") for line in seen)
    outcome = run_client_jsvs(
        {"b": True}, [recorder.path], user="u", group="g", cmdname="sleep", cmdargs=[]
    )
    assert outcome.accepted, outcome.message
    seen = recorder.seen()
    assert seen[:3] == ["PARAM VERSION 1.0", "PARAM CONTEXT client", "PARAM CLIENT qsub"]
    assert not any(line.startswith("PARAM JOB_ID ") for line in seen)
