"""Daemon settings: TOML file, environment overrides, unknown keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.errors import ConfigError
from qmaster.conf.settings import load_settings


def test_shipped_settings_load() -> None:
    """The default cell's qmaster.toml gives the documented defaults."""
    settings = load_settings(DEFAULT_CONF_DIR / "qmaster.toml", env={})
    assert settings.jsv_pool_size == 2
    assert settings.max_frame_bytes == 64 * 1024 * 1024
    assert settings.sync == "normal"
    assert settings.socket is None


def test_environment_overrides_file(tmp_path: Path) -> None:
    """MINIGE_<KEY> wins over the file."""
    path = tmp_path / "q.toml"
    path.write_text('log_format = "json"\njsv_pool_size = 3\n')
    env = {"MINIGE_LOG_FORMAT": "console", "MINIGE_SYNC": "full", "OTHER": "x"}
    settings = load_settings(path, env=env)
    assert (settings.log_format, settings.sync, settings.jsv_pool_size) == ("console", "full", 3)


def test_unknown_key_is_named(tmp_path: Path) -> None:
    """An unknown setting is an error naming the key and the file."""
    path = tmp_path / "q.toml"
    path.write_text("jsv_poolsize = 3\n")
    with pytest.raises(ConfigError, match=r'q\.toml:0: unknown setting "jsv_poolsize"'):
        load_settings(path, env={})


def test_bad_value_is_named(tmp_path: Path) -> None:
    """A bad value names its setting."""
    with pytest.raises(ConfigError, match='invalid value for setting "sync"'):
        load_settings(tmp_path / "missing.toml", env={"MINIGE_SYNC": "sometimes"})


def test_execution_mode_is_simulated_unless_set_local(tmp_path: Path) -> None:
    """execution is "simulated" by default, "local" from the file or MINIGE_EXECUTION."""
    path = tmp_path / "q.toml"
    assert load_settings(path, env={}).execution == "simulated"
    path.write_text('execution = "local"\n')
    assert load_settings(path, env={}).execution == "local"
    env = {"MINIGE_EXECUTION": "simulated"}
    assert load_settings(path, env=env).execution == "simulated"
    with pytest.raises(ConfigError, match='invalid value for setting "execution"'):
        load_settings(path, env={"MINIGE_EXECUTION": "remote"})
