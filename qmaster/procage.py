"""How long this process has been running, for the daemon's start-up figures (Linux)."""

from __future__ import annotations

import os


def process_age() -> float | None:
    """Seconds since this process was started (from ``/proc``), None where it cannot tell.

    ``qmaster_started`` logs it: beside ``state_recovered``'s seconds it tells the
    interpreter and imports apart from the recovery in the time to the first answer.
    """
    try:
        with open("/proc/self/stat") as fh:
            fields = fh.read().rpartition(")")[2].split()
        with open("/proc/uptime") as fh:
            uptime = float(fh.read().split()[0])
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: starttime
    except (OSError, ValueError, IndexError):
        return None
    return round(uptime - started, 2)
