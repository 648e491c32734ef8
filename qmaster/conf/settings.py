"""The daemon's own settings: ``qmaster.toml``, then ``MINIGE_<KEY>`` environment variables."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from qmaster.conf.errors import ConfigError

ENV_PREFIX = "MINIGE_"


class DaemonSettings(BaseModel):
    """Settings of the qmaster process; ``socket``/``spool`` None mean the cell's paths."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    socket: Path | None = None
    spool: Path | None = None
    log_format: Literal["json", "console"] = "json"
    jsv_pool_size: int = Field(2, ge=1)
    max_frame_bytes: int = Field(64 * 1024 * 1024, ge=1024)
    max_connections: int = Field(512, ge=1)
    request_timeout: float = Field(10.0, gt=0)
    default_runtime: float = Field(1.0, ge=0)
    sync: Literal["normal", "full"] = "normal"
    execution: Literal["simulated", "local"] = "simulated"


def _env_overrides(env: Mapping[str, str]) -> dict[str, str]:
    known = DaemonSettings.model_fields
    values: dict[str, str] = {}
    for name, value in env.items():
        if name.startswith(ENV_PREFIX):
            key = name[len(ENV_PREFIX) :].lower()
            if key in known:
                values[key] = value
    return values


def _first_error(path: str, exc: ValidationError) -> ConfigError:
    err = exc.errors()[0]
    key = ".".join(str(part) for part in err["loc"])
    if err["type"] == "extra_forbidden":
        return ConfigError(path, 0, f'unknown setting "{key}"')
    return ConfigError(path, 0, f'invalid value for setting "{key}": {err["msg"]}')


def load_settings(path: Path | None, env: Mapping[str, str] | None = None) -> DaemonSettings:
    """Settings from the TOML file (if it exists), overridden by ``MINIGE_<KEY>``.

    ``env`` defaults to the process environment.
    """
    env = os.environ if env is None else env
    shown = str(path) if path else "<defaults>"
    data: dict[str, Any] = {}
    if path is not None and path.exists():
        try:
            data = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(shown, getattr(exc, "lineno", 0), str(exc)) from None
    data.update(_env_overrides(env))
    try:
        return DaemonSettings.model_validate(data)
    except ValidationError as exc:
        raise _first_error(shown, exc) from None
