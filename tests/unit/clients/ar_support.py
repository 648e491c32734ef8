"""Helpers of the AR client tests: a local time zone switch and ArRow factories."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from qmaster.gdi.client import FAKE_USER_ENV


@contextmanager
def local_zone(name: str) -> Iterator[None]:
    """Run the block with ``TZ=name``, restoring the previous zone afterwards."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if old is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = old
        time.tzset()


def isolate_cell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, user: str = "alice") -> Path:
    """Point SGE_ROOT and HOME into ``tmp_path`` and fix the caller's name; return HOME."""
    home = tmp_path / "home"
    (tmp_path / "default" / "common").mkdir(parents=True)
    home.mkdir()
    monkeypatch.setenv("SGE_ROOT", str(tmp_path))
    monkeypatch.setenv("SGE_CELL", "default")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv(FAKE_USER_ENV, user)
    return home


def ar_row(ar_id: int = 1, **fields: Any) -> dict[str, Any]:
    """An ArRow as the qmaster sends it: one hour from 2026-01-01 10:00 UTC by default."""
    row: dict[str, Any] = {
        "ar_id": ar_id,
        "name": "",
        "owner": "alice",
        "group": "staff",
        "state": "w",
        "submission_time": 1767258000.0,
        "start_time": 1767261600.0,
        "end_time": 1767265200.0,
        "duration": 3600.0,
        "account": "sge",
        "resource_list": {},
        "granted_slots": [],
        "granted_pe": None,
        "masterq": [],
        "ckpt": None,
        "mail_options": None,
        "mail_list": [],
        "acl_list": [],
        "xacl_list": [],
        "error_handling": False,
        "messages": [],
    }
    row.update(fields)
    return row
