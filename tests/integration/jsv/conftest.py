"""Fixtures: JSV scripts written to a temp dir, built on the shipped shell library."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "jsv"

# A JSV that stamps its PID into the job (ac JSV_PID=$$) and misbehaves on
# demand: the job name (-N) says how.
MISBEHAVING = r"""#!/bin/sh
. "{include}"
jsv_on_start() {{ return; }}
jsv_on_verify() {{
   case "`jsv_get_param N`" in
      hang) sleep 30 ;;
      crash) kill -9 $$ ;;
      garbage) echo $$ ;;
      unknown) echo "HELLO there" ;;
      binary) printf '\377\376\001\n' ;;
      flood) while :; do echo "LOG INFO spam"; done ;;
      bigline) head -c 10000000 /dev/zero | tr '\0' x; echo ;;
      stderr) echo "oops from the jsv" >&2 ;;
      error) jsv_send_command ERROR database is down; return ;;
      reject) jsv_reject; return ;;
   esac
   jsv_sub_add_param ac JSV_PID $$
   jsv_correct
}}
jsv_main
"""

IGNORES_QUIT = r"""#!/bin/sh
trap '' TERM
sleep 300 &
while :; do
   IFS= read -r line || sleep 300
   case "$line" in
      START) echo STARTED ;;
      BEGIN) echo "RESULT STATE ACCEPT" ;;
   esac
done
"""


def write_script(path: Path, text: str) -> str:
    """Write an executable script and return its path."""
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


@pytest.fixture
def bad_jsv(tmp_path: Path) -> str:
    """Path of the PID-stamping, misbehaving-on-demand shell JSV."""
    include = EXAMPLES / "jsv_include.sh"
    return write_script(tmp_path / "bad_jsv.sh", MISBEHAVING.format(include=include))


@pytest.fixture
def quit_ignoring_jsv(tmp_path: Path) -> str:
    """Path of a JSV that ignores QUIT and SIGTERM and leaves a child running."""
    return write_script(tmp_path / "stubborn.sh", IGNORES_QUIT)


def group_members(pgid: int) -> list[int]:
    """PIDs of live (non-zombie) processes in process group ``pgid``."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            pids.append(int(entry))
    return pids


def group_gone(pgid: int, within: float = 1.0) -> bool:
    """Whether process group ``pgid`` has no live process, allowing ``within`` seconds for
    a SIGKILL already sent to be carried out (under load a killed child can still show as
    running for a moment after the group's leader was reaped)."""
    deadline = time.monotonic() + within
    while group_members(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
