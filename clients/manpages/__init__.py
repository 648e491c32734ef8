"""The commands' man pages, generated from one source (``python -m clients.manpages``).

Each page is a troff man(7) page made of the command's usage — the very text
``<command> -help`` prints, captured by running it — and the written sections
of :mod:`clients.manpages.sections` (NAME, DESCRIPTION with minige's
differences from Grid Engine 6.2u5, EXIT STATUS, SEE ALSO). The pages are
committed under ``man/man1`` and installed into ``share/man/man1``;
``tests/unit/clients/test_manpages.py`` fails when they are out of date.
No command imports this package at run time.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import sys
from collections.abc import Callable
from pathlib import Path

from clients.manpages.sections import COMMANDS, Page

ROOT = Path(__file__).resolve().parents[2]
MAN_DIR = ROOT / "man" / "man1"


def help_of(entry_point: str) -> str:
    """What ``-help`` prints for the command behind ``module:function``."""
    module_name, _, function = entry_point.partition(":")
    main: Callable[[list[str]], int] = getattr(importlib.import_module(module_name), function)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
        main(["-help"])
    return buffer.getvalue()


def escape(text: str) -> str:
    """``text`` as troff prints it literally (backslashes, dashes, leading dots)."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(
        "\\&" + line if line.startswith((".", "'")) else line for line in text.split("\n")
    )


def paragraphs(texts: tuple[str, ...]) -> list[str]:
    """Written paragraphs, each after ``.PP``."""
    lines: list[str] = []
    for text in texts:
        lines += [".PP", escape(" ".join(text.split()))]
    return lines


def render(name: str, page: Page, usage: str, commands: list[str]) -> str:
    """The man(7) source of one command's page."""
    lines = [
        f'.TH {name.upper()} 1 "" "minige" "minige (Grid Engine 6.2u5) commands"',
        ".SH NAME",
        f"{escape(name)} \\- {escape(page.summary)}",
        ".SH SYNOPSIS",
        ".nf",
        escape(usage.rstrip("\n")),
        ".fi",
        ".SH DESCRIPTION",
        *paragraphs(page.description),
    ]
    if page.differences:
        lines += [".SS Differences from Grid Engine 6.2u5", *paragraphs(page.differences)]
    lines += [".SH EXIT STATUS", *paragraphs(page.exit_status)]
    others = [other for other in commands if other != name]
    lines += [".SH SEE ALSO", ",\n".join(f".BR {escape(o)} (1)" for o in others)]
    return "\n".join(lines) + "\n"


def present() -> dict[str, Page]:
    """The commands of :data:`COMMANDS` whose module exists in this tree."""
    return {
        name: page
        for name, page in COMMANDS.items()
        if importlib.util.find_spec(page.entry_point.partition(":")[0]) is not None
    }


def pages() -> dict[str, str]:
    """Every present command's page, by file name (``qsub.1``)."""
    commands = present()
    return {
        f"{name}.1": render(name, page, help_of(page.entry_point), sorted(commands))
        for name, page in commands.items()
    }


def write(directory: Path = MAN_DIR) -> list[Path]:
    """Write every page into ``directory``; the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, text in pages().items():
        path = directory / file_name
        path.write_text(text)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m clients.manpages [DIR]``: (re)generate the pages."""
    args = sys.argv[1:] if argv is None else argv
    for path in write(Path(args[0]) if args else MAN_DIR):
        print(path)
    return 0
