"""The soak's table, and the watch it keeps on the daemon's descriptors and memory."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from bench.attacks import descriptors, percentile, rss_mib


@dataclass
class Line:
    """One line of the soak table."""

    attack: str
    figure: str
    value: str
    target: str = ""
    met: bool | None = None


@dataclass
class Table:
    """The soak table, printed at the end."""

    lines: list[Line] = field(default_factory=list)

    def add(
        self, attack: str, figure: str, value: str, target: str = "", met: bool | None = None
    ) -> None:
        self.lines.append(Line(attack, figure, value, target, met))
        print(f"  {attack}: {figure} = {value} {target}", flush=True)

    def render(self) -> str:
        head = ("attack", "figure", "value", "target", "met")
        rows = [head] + [
            (
                ln.attack,
                ln.figure,
                ln.value,
                ln.target,
                "" if ln.met is None else ("yes" if ln.met else "NO"),
            )
            for ln in self.lines
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        out = [
            "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"
            for r in rows
        ]
        out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
        return "\n".join(out)

    @property
    def missed(self) -> bool:
        return any(ln.met is False for ln in self.lines)


class Watch:
    """The daemon's descriptors and RSS before, at the worst during, and after an attack."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before = (descriptors(pid), rss_mib(pid))
        self.peak = self.before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            try:
                now = (descriptors(self.pid), rss_mib(self.pid))
            except OSError:
                return
            self.peak = (max(self.peak[0], now[0]), max(self.peak[1], now[1]))

    def finish(self, table: Table, attack: str, settle: float = 5.0) -> None:
        self._stop.set()
        self._thread.join()
        deadline = time.monotonic() + settle
        while descriptors(self.pid) > self.before[0] + 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
        after = (descriptors(self.pid), rss_mib(self.pid))
        fds = f"{self.before[0]} / {self.peak[0]} / {after[0]}"
        table.add(
            attack,
            "descriptors before/peak/after",
            fds,
            "back to before",
            after[0] <= self.before[0] + 2,
        )
        rss = f"{self.before[1]:.0f} / {self.peak[1]:.0f} / {after[1]:.0f} MiB"
        table.add(
            attack,
            "RSS before/peak/after",
            rss,
            "after <= before +10 %",
            after[1] <= self.before[1] * 1.10,
        )


def pings(table: Table, attack: str, waits: list[float]) -> None:
    worst = max(waits, default=float("inf"))
    table.add(
        attack,
        "ping (from its own process) p50/p99/max",
        ms(waits) + f" / {worst * 1000:.0f} ms",
        "max <= 1000 ms",
        worst <= 1.0,
    )


def ms(values: list[float]) -> str:
    return f"{percentile(values, 50) * 1000:.0f} / {percentile(values, 99) * 1000:.0f}"
