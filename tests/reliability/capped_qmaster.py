"""``python -m tests.reliability.capped_qmaster PAGES``: the qmaster in the foreground, its
spool database capped at PAGES pages with SQLite's ``max_page_count`` (a disk that fills
up at an exact size, without a filesystem of its own)."""

from __future__ import annotations

import sys

from qmaster import cli
from qmaster.spool.database import Spool

_open = Spool.__init__


def _capped(self: Spool, *args: object, **kw: object) -> None:
    _open(self, *args, **kw)  # type: ignore[arg-type]
    self.set_max_pages(int(sys.argv[1]))


if __name__ == "__main__":
    Spool.__init__ = _capped  # type: ignore[method-assign]
    cli.main(["start", "--foreground"])
