"""jsv_timeout and jsv_threshold live in qmaster_params, as sge_conf(5) has them."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.cluster import GlobalConf
from qmaster.conf.errors import ConfigError
from qmaster.conf.store import ClusterConfig


def test_default_cell_sets_them_in_qmaster_params() -> None:
    """qconf -sconf of a fresh cell shows them in qmaster_params and not as keys of their own."""
    text = ClusterConfig.load_dir(DEFAULT_CONF_DIR).show("global", None)["text"]
    keys = [line.split()[0] for line in text.splitlines()[1:] if not line.startswith(" ")]
    assert "jsv_timeout" not in keys
    assert "jsv_threshold" not in keys
    assert "qmaster_params               jsv_timeout=10,jsv_threshold=5000" in text


@pytest.mark.parametrize(
    ("params", "timeout", "threshold"),
    [
        ("none", 10.0, 5000.0),
        ("JSV_TIMEOUT=3 jsv_threshold=0", 3.0, 0.0),
        ("ENABLE_FORCED_QDEL,jsv_timeout=0", 10.0, 5000.0),
    ],
)
def test_values_are_read_from_qmaster_params(params: str, timeout: float, threshold: float) -> None:
    """Names are case-insensitive; a timeout of 0 falls back to the default 10 s."""
    conf = GlobalConf.parse(f"qmaster_params {params}\n")
    assert (conf.jsv_timeout, conf.jsv_threshold) == (timeout, threshold)


def test_bad_value_is_refused_with_line() -> None:
    """A jsv_timeout that is no integer is refused naming the file and line."""
    with pytest.raises(ConfigError, match=r'^g:2: .*"jsv_timeout=soon" is not an integer'):
        GlobalConf.parse("max_jobs 0\nqmaster_params jsv_timeout=soon\n", "g")


def test_old_top_level_keys_move_into_qmaster_params() -> None:
    """A configuration written with top-level jsv_timeout still loads, into qmaster_params."""
    conf = GlobalConf.parse("qmaster_params FOO\njsv_timeout 3\n")
    assert conf.attrs["qmaster_params"] == "FOO,jsv_timeout=3"
    assert conf.jsv_timeout == 3.0


def test_grid_engine_configuration_file_loads() -> None:
    """-Mconf of a Grid Engine 6.2u5 global configuration works; minige's own keys keep values."""
    conf = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    text = (Path(__file__).parents[2] / "data" / "ge62u5_configuration").read_text()
    change = conf.apply("conf_modify", {"kind": "global", "text": text}, "root", "h", True)
    assert [a.text for a in change.answers] == ['root@h modified "global" in configuration list']
    glob = conf.global_conf
    assert glob.attrs["additional_jvm_args"] == "-Xmx256m"
    assert glob.attrs["jsv_reject_wait_backoff"] == "00:00:10"
    assert (glob.jsv_timeout, glob.max_advance_reservations) == (10.0, 0)


def test_qmaster_params_may_be_separated_by_semicolons() -> None:
    """qmaster_params entries separated by ';' are read as Grid Engine reads them."""
    conf = GlobalConf.parse("qmaster_params jsv_timeout=4;jsv_threshold=7\n")
    assert (conf.jsv_timeout, conf.jsv_threshold) == (4.0, 7.0)


@pytest.mark.parametrize(
    ("params", "inherit"),
    [("none", True), ("INHERIT_ENV=false", False), ("inherit_env=0", False),
     ("INHERIT_ENV", True), ("INHERIT_ENV=TRUE,SET_LIB_PATH=true", True),
     ("KEEP_ACTIVE=true INHERIT_ENV=no", False), ("INHERIT_ENV=T", False),
     ("INHERIT_ENV=10", True)],
)  # fmt: skip
def test_inherit_env_is_read_from_execd_params(params: str, inherit: bool) -> None:
    """execd_params INHERIT_ENV as parse_bool_param() reads it: true when set bare, to a
    value starting with 1, or to true in any case; any other value is false."""
    assert GlobalConf.parse(f"execd_params {params}\n").inherit_env is inherit
