"""The progress bar on stderr (only on a terminal; tqdm, from the extra ``minige[sim]``).

It shows the jobs ended out of the trace's jobs, their rate per wall-second and
the simulated time reached. Nothing is printed when stderr is not a terminal,
so redirected output and the files written stay the same bytes.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

EVERY = 50
"""Jobs between updates of the simulated-time field."""


class Bar:
    """A tqdm bar fed by the simulation's progress calls."""

    def __init__(self, bar: Any) -> None:
        self.bar = bar
        self.shown = 0
        self.latest = 0

    def __call__(self, simulated: float, ended: int) -> None:
        self.latest = ended
        if ended - self.shown < EVERY:
            return
        self.bar.update(ended - self.shown)
        self.shown = ended
        days, rest = divmod(int(simulated), 86400)
        self.bar.set_postfix_str(f"simulated {days}d {rest // 3600:02d}:{rest % 3600 // 60:02d}")

    def close(self) -> None:
        self.bar.update(self.latest - self.shown)
        self.bar.close()


def progress_bar(total: int) -> Bar | None:
    """A bar when stderr is a terminal and tqdm is installed, else ``None``."""
    if not sys.stderr.isatty():
        return None
    try:
        tqdm = importlib.import_module("tqdm").tqdm
    except ImportError:
        return None
    return Bar(tqdm(total=total, unit="job", file=sys.stderr, dynamic_ncols=True))
