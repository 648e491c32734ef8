"""How the AR commands show times: always local time."""

from __future__ import annotations

import datetime as dt
import time


def ge_time(epoch: float) -> str:
    """``%m/%d/%Y %H:%M:%S``, qrstat's text format."""
    return time.strftime("%m/%d/%Y %H:%M:%S", time.localtime(epoch))


def xml_time(epoch: float) -> str:
    """``%Y-%m-%dT%H:%M:%S`` with no offset, qrstat's XML format."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(epoch))


def rfc3339(epoch: float) -> str:
    """RFC 3339 with the local offset, e.g. ``2026-01-01T10:00:00+01:00`` (JSON output)."""
    return dt.datetime.fromtimestamp(int(epoch)).astimezone().isoformat(timespec="seconds")
