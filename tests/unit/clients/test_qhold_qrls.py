"""qhold/qrls and qconf's new verbs: the requests they send for each command line."""

from __future__ import annotations

import pytest

from clients import qconf, qhold, qrls
from clients.qconf_more import _matches
from qmaster.gdi.answers import ok
from tests.unit.clients.conftest import FakeQmaster


@pytest.mark.parametrize(
    ("cmd", "argv", "letters"),
    [
        (qhold, ["7"], "u"),
        (qhold, ["-h", "o,s", "7"], "os"),
        (qhold, ["-h", "su", "7"], "us"),
        (qrls, ["7"], "U"),
        (qrls, ["-h", "o", "7"], "O"),
        (qrls, ["-h", "u", "-h", "s", "7"], "US"),
    ],
)
def test_hold_letters_sent_with_alter(
    qmaster: FakeQmaster, cmd: object, argv: list[str], letters: str
) -> None:
    """qhold sets (u o s), qrls removes (U O S); the user hold when -h is not given."""
    qmaster.reply("alter", [ok("modified hold of job 7")])
    assert cmd.main(argv, transport=qmaster) == 0  # type: ignore[attr-defined]
    assert qmaster.last == ("alter", {"job_ids": ["7"], "job": {}, "hold": letters})


def test_u_picks_the_users_jobs(qmaster: FakeQmaster) -> None:
    """-u alice sends one alter for the ids job_list returns (once per job)."""
    rows = [{"job_id": 3}, {"job_id": 3}, {"job_id": 5}]
    qmaster.reply("job_list", data={"jobs": rows})
    assert qhold.main(["-u", "alice"], transport=qmaster) == 0
    assert qmaster.calls[0] == ("job_list", {"users": ["alice"], "full": False})
    assert qmaster.last[1]["job_ids"] == ["3", "5"]


def test_bad_hold_type_and_no_jobs(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-h x and a missing job list are usage errors; nothing is sent."""
    assert qhold.main(["-h", "x", "7"], transport=qmaster) == 1
    assert qrls.main([], transport=qmaster) == 1
    assert "usage: qrls" in capsys.readouterr().err
    assert qmaster.calls == []


def test_qconf_attr_verbs_send_one_request_per_object(qmaster: FakeQmaster) -> None:
    """-mattr queue slots 8 a.q,b.q@h sends conf_attr twice; -purge sends mode purge."""
    assert qconf.main(["-mattr", "queue", "slots", "8", "a.q,b.q@h"], transport=qmaster) == 0
    assert [c[1]["name"] for c in qmaster.calls] == ["a.q", "b.q@h"]
    assert qmaster.last[1] == {
        "kind": "cqueue", "mode": "change", "pairs": [["slots", "8"]], "name": "b.q@h"
    }  # fmt: skip
    qconf.main(["-purge", "queue", "*", "a.q@@grp"], transport=qmaster)
    assert qmaster.last[1]["mode"] == "purge"
    assert qconf.main(["-aattr", "rqs", "x", "1", "r"], transport=qmaster) == 1


def test_sobjl_matching() -> None:
    """Cluster queues match on the default value, instances and domains on host values."""
    text = "qname q\nslots 1,[h1=4],[@g=2]\n"
    assert _matches("queue", "q", text, "slots", "1") == ["q"]
    assert _matches("queue_instance", "q", text, "sl*", "4") == ["q@h1"]
    assert _matches("queue_domain", "q", text, "slots", "*") == ["q@@g"]
    assert _matches("pe", "make", "pe_name make\nslots 999\n", "slots", "9*") == ["make"]
