"""``python -m bench.qstat_stages`` — where ``qstat -u '*'`` spends its time, stage by stage.

A core on the scale benchmark's cell (:mod:`bench.scale_cell`: 1,000 hosts × 8
slots, every slot running, then ``--jobs`` pending jobs of its mix, one in 100
an array) answers qstat's streamed ``job_list`` in this process, and each stage
of the request is timed on its own, best of ``--runs``:

* rows: the core's answer and its frames' rows (:class:`ChunkedListing`);
* encode: each frame encoded as the GDI server sends it (:meth:`Reply.encode`);
* decode: each frame decoded as the client receives it;
* render: the client's listing written from the decoded frames
  (:class:`~clients.qstat_render.stream.ListingWriter`).

The daemon's side is rows + encode, the client's decode + render; in the real
command the two sides overlap, frame by frame.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.scale_cell import write_conf
from bench.scale_core import OWNER, CoreFiller
from clients.qstat import CHUNK_ROWS
from clients.qstat_render.stream import ListingWriter
from qmaster.gdi.client import _decode
from qmaster.gdi.server import Reply
from qmaster.qstat_wire import expand
from qmaster.stimuli_wire import parse

FRACTION = 0.123457
WIRE = {"users": ["*"], "compact": True, "chunk": CHUNK_ROWS, "running_first": True}


def frames_of(filler: CoreFiller) -> list[dict[str, Any]]:
    """The data of every frame the daemon sends for ``qstat -u '*'``."""
    out = filler.core.handle(parse(OWNER, "job_list", dict(WIRE)), filler.now)
    return list(out.data.frames())


def encoded(frames: list[dict[str, Any]]) -> list[bytes]:
    """Each frame as the GDI server writes it (length prefix and JSON)."""
    return [Reply([], data).encode() for data in frames]


def decoded(bodies: list[bytes]) -> list[dict[str, Any]]:
    """Each frame as the client reads it (without the 4-byte length prefix)."""
    return [_decode(body[4:]).data for body in bodies]


def rendered(frames: list[dict[str, Any]]) -> str:
    """The listing qstat prints from these frames."""
    out = io.StringIO()
    writer = ListingWriter(out.write, fmt="text", full=False, layout=None, queues=None)
    writer.head([expand(r) for r in frames[0].get("job_rows") or []])
    for frame in frames[1:]:
        writer.compact_rows(frame.get("job_rows") or [])
    writer.end()
    return out.getvalue()


def best(runs: int, what: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``runs`` calls, and the last result."""
    fastest, result = float("inf"), None
    for _ in range(runs):
        started = time.perf_counter()
        result = what()
        fastest = min(fastest, time.perf_counter() - started)
    return fastest, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="qstat_stages", description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="minige-qstat-stages-") as tmp:
        filler = CoreFiller(write_conf(Path(tmp) / "conf"))
        filler.now += FRACTION  # times as a daemon's clock gives them, not whole seconds
        filler.fill_runners()
        filler.grow(args.jobs, float("inf"))
    rows_s, frames = best(args.runs, lambda: frames_of(filler))
    encode_s, bodies = best(args.runs, lambda: encoded(frames))
    decode_s, received = best(args.runs, lambda: decoded(bodies))
    render_s, text = best(args.runs, lambda: rendered(received))
    wire = sum(map(len, bodies))
    print(f"qstat -u '*' of {len(filler.core.jobs):,} jobs ({args.jobs:,} pending), "
          f"{len(frames)} frames, {wire / 1e6:.1f} MB on the wire, "
          f"{len(text.encode()) / 1e6:.1f} MB printed; best of {args.runs}:")  # fmt: skip
    for stage, seconds in (
        ("daemon: rows", rows_s), ("daemon: encode", encode_s),
        ("client: decode", decode_s), ("client: render", render_s),
    ):  # fmt: skip
        print(f"  {stage:<16} {seconds * 1000:8.0f} ms")
    print(f"  {'daemon total':<16} {(rows_s + encode_s) * 1000:8.0f} ms")
    print(f"  {'client total':<16} {(decode_s + render_s) * 1000:8.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
