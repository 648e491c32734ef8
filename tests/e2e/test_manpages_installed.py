"""`man qsub` finds the installed page through the venv's bin on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_man_finds_the_venvs_pages() -> None:
    """With the venv's bin first on PATH and no MANPATH, man -w qsub is the venv's page."""
    bin_dir = Path(sys.prefix) / "bin"
    env = {k: v for k, v in os.environ.items() if k != "MANPATH"}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    for name in ("qsub", "qstat", "qevent"):
        result = subprocess.run(
            ["man", "-w", name], env=env, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr
        assert Path(result.stdout.strip()) == Path(sys.prefix) / "share/man/man1" / f"{name}.1"
