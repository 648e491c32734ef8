"""An AR is stored and shown as Grid Engine keeps it: full names, mail order, access lists."""

from __future__ import annotations

from tests.unit.ar.helpers import HOUR, ar_core, ar_rows, modify_queue, qrsub
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, request, submit, texts


def test_resource_shortcuts_are_stored_by_full_name() -> None:
    """-l h=host1,s_rt=60 is kept (and shown) as hostname=host1,s_rt=60."""
    core = ar_core()
    assert not qrsub(core, d=HOUR, l_hard={"h": "host1", "s_rt": "60"}).answers[0].is_error
    assert ar_rows(core)[0]["resource_list"] == {"hostname": "host1", "s_rt": "60"}
    assert core.ars[1].granted == (("all.q@host1", 1),)


def test_mail_options_are_kept_in_grid_engines_order() -> None:
    """-m bea is kept as abe, whatever order the client sent."""
    core = ar_core()
    qrsub(core, d=HOUR, m="bea")
    assert ar_rows(core)[0]["mail_options"] == "abe"


def test_bad_mail_options_are_refused_by_the_qmaster_too() -> None:
    """A client that sends -m x gets qrsub's complaint, and nothing is granted."""
    core = ar_core()
    out = qrsub(core, d=HOUR, m="x")
    assert out.answers[0].is_error
    assert 'Wrong mail options list format "x"' in out.answers[0].text
    assert not core.ars


def test_excluded_users_go_to_the_xacl_list() -> None:
    """-u 'alice,!bob' shows acl_list alice and xacl_list bob; bob's jobs are refused."""
    core = ar_core()
    qrsub(core, d=HOUR, u=["alice", "!bob", "alice"])
    row = ar_rows(core)[0]
    assert (row["acl_list"], row["xacl_list"]) == (["alice"], ["bob"])
    spec = {"ar": 1, "l_hard": {"h_rt": "60"}}
    assert not submit(core, ALICE, T0, **spec).answers[0].is_error
    refused = submit(core, BOB, T0, **spec)
    assert refused.answers[0].is_error


def test_no_access_list_is_shown_without_u() -> None:
    """An AR made without -u shows no acl_list, yet only its owner may use it."""
    core = ar_core()
    qrsub(core, d=HOUR)
    row = ar_rows(core)[0]
    assert (row["acl_list"], row["xacl_list"]) == ([], [])
    assert submit(core, BOB, T0, ar=1, l_hard={"h_rt": "60"}).answers[0].is_error


def test_checkpoint_object_is_carried_and_picks_queues() -> None:
    """-ckpt is stored and shown, reserves only queues listing it, and guards their ckpt_list."""
    core = ar_core()
    request(core, ROOT, "conf_modify", kind="ckpt", text="ckpt_name blcr\n", add=True)
    assert qrsub(core, d=HOUR, ckpt="blcr").answers[0].is_error  # no queue lists it
    assert not modify_queue(core, T0, ckpt_list="blcr").answers[0].is_error
    assert not qrsub(core, d=HOUR, ckpt="blcr").answers[0].is_error
    assert ar_rows(core)[0]["ckpt"] == "blcr"
    assert core.ars[1].spec.ckpt == "blcr"
    out = modify_queue(core, T0, ckpt_list="NONE")
    assert texts(out) == [
        'denied: removing "blcr" from ckpt_list would break advance reservation 1'
    ]
