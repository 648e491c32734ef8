"""The daemon's log cannot be made to grow without bound by what clients send."""

from __future__ import annotations

import json
from pathlib import Path

import structlog

from qmaster import logs


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_huge_claimed_name_is_logged_cut_short(tmp_path: Path) -> None:
    """A 1 MiB value is logged as its first 512 characters and its length."""
    messages = tmp_path / "messages"
    logs.configure(messages)
    try:
        logs.get("gdi").warning("gdi_identity_mismatch", claimed="x" * (1 << 20), peer="nobody")
    finally:
        structlog.reset_defaults()
    (event,) = _lines(messages)
    assert event["claimed"] == "x" * 512 + f"... ({1 << 20} characters)"
    assert event["peer"] == "nobody"
    assert messages.stat().st_size < 2048


def test_the_log_is_rotated_at_its_size_bound(tmp_path: Path) -> None:
    """Past its size bound the log moves to messages.1 and starts again: two files at most."""
    messages = tmp_path / "messages"
    logs.configure(messages, max_bytes=4096)
    try:
        log = logs.get("gdi")
        for i in range(200):
            log.info("ping", n=i, filler="y" * 100)
    finally:
        structlog.reset_defaults()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messages", "messages.1"]
    assert messages.stat().st_size <= 4096
    assert (tmp_path / "messages.1").stat().st_size <= 4096
    assert _lines(messages)[-1]["n"] == 199
