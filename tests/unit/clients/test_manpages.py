"""The man pages: one per command, generated from its -help text, committed up to date."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from clients import manpages
from clients.manpages.sections import COMMANDS

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _no_user_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SGE_ROOT", str(tmp_path / "root"))


def test_every_command_has_a_page() -> None:
    """Each command of [project.scripts] but the qmaster daemon and the qsim simulator (minige's
    own drivers of the core, documented by their --help) has a man page."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    commands = {name for name in scripts if name not in ("qmaster", "qsim")}
    assert set(manpages.present()) == commands
    assert all(COMMANDS[name].entry_point == scripts[name] for name in commands)
    assert {f"{name}.1" for name in commands} == set(manpages.pages())


def test_committed_pages_are_up_to_date() -> None:
    """man/man1 holds exactly what `python -m clients.manpages` generates now."""
    committed = {path.name: path.read_text() for path in (ROOT / "man" / "man1").glob("*.1")}
    assert committed == manpages.pages(), "run: .venv/bin/python -m clients.manpages"


@pytest.mark.parametrize("name", sorted(manpages.present()))
def test_page_synopsis_is_the_help_text(name: str) -> None:
    """The SYNOPSIS is what `<command> -help` prints, version line first."""
    usage = manpages.help_of(COMMANDS[name].entry_point)
    assert usage.startswith("GE 6.2u5\nusage:")
    page = manpages.pages()[f"{name}.1"]
    synopsis = page.split(".SH SYNOPSIS\n.nf\n", 1)[1].split("\n.fi\n", 1)[0]
    assert synopsis == manpages.escape(usage.rstrip("\n"))
    for section in ("NAME", "DESCRIPTION", "EXIT STATUS", "SEE ALSO"):
        assert f".SH {section}\n" in page


def test_escape_keeps_troff_requests_out() -> None:
    """Leading dots, backslashes and dashes of a usage print literally."""
    assert manpages.escape(".x\n'y\na\\b -c") == "\\&.x\n\\&'y\na\\eb \\-c"


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
@pytest.mark.parametrize("name", sorted(manpages.present()))
def test_groff_reads_the_page_without_warnings(name: str) -> None:
    """groff -man formats each committed page with no warning at all."""
    page = ROOT / "man" / "man1" / f"{name}.1"
    result = subprocess.run(
        ["groff", "-man", "-Tutf8", "-ww", "-z", str(page)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
