"""Modifying an existing object needs the whole file: a truncated one changes nothing."""

from __future__ import annotations

import re

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig


def test_truncated_queue_file_is_refused_and_the_queue_kept():
    """qconf -Mq with only 'qname all.q' is refused naming the first missing attribute."""
    config = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    before = config.show("cqueue", "all.q")["text"]
    args = {"kind": "cqueue", "text": "qname all.q\n", "source": "qshort"}
    change = config.apply("conf_modify", args, "root", "host", True)
    assert [a.text for a in change.answers] == [
        'qshort:1: Required attribute "hostlist" is missing'
    ]
    assert not change.upserts
    assert config.show("cqueue", "all.q")["text"] == before


def test_new_queue_may_rely_on_defaults():
    """Adding a queue (qconf -Aq) fills the attributes it does not give with the defaults."""
    config = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    args = {"kind": "cqueue", "text": "qname short.q\nhostlist @allhosts\n", "source": "new",
            "add": True}  # fmt: skip
    change = config.apply("conf_modify", args, "root", "host", True)
    assert change.ok, change.answers
    assert "short.q" in config.show("cqueue", None)["names"]


def test_reservation_needs_a_default_duration() -> None:
    """-Msconf with max_reservation 1 and default_duration 0 is refused (sconf_validate_config_);
    INFINITY is a valid duration."""
    config = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    text = config.show("sched", None)["text"]
    bad = re.sub(r"^max_reservation .*$", "max_reservation 1", text, flags=re.M)
    bad = re.sub(r"^default_duration .*$", "default_duration 0:0:0", bad, flags=re.M)
    change = config.apply(
        "conf_modify", {"kind": "sched", "text": bad, "source": "s"}, "root", "h", True
    )
    assert change.answers[0].text.endswith(
        "denied: resource reservation requires valid default duration"
    )
    assert config.show("sched", None)["text"] == text
    good = re.sub(r"^default_duration .*$", "default_duration INFINITY", bad, flags=re.M)
    assert config.apply(
        "conf_modify", {"kind": "sched", "text": good, "source": "s"}, "root", "h", True
    ).ok
