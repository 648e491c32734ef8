"""qstat's text and XML listings printed part by part, as the qmaster's frames arrive.

The qmaster sends the rows in a queue first (with the queue instances) and
then the other rows in job order, a frame at a time. Every layout prints the
rows in a queue before the others, so :class:`ListingWriter` writes the head
at once and then each further batch of rows: the output is byte for byte what
the whole-listing renderers (:func:`clients.qstat_render.text.render_jobs`,
:func:`clients.qstat_render.listing.render_list`,
:func:`clients.qstat_render.listing.render_full_listing`,
:func:`clients.qstat_render.xml.render_xml`) give for all the rows at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any
from xml.sax.saxutils import quoteattr

from clients.qstat_render.columns import Layout, header
from clients.qstat_render.listing import job_block, queue_block
from clients.qstat_render.text import (
    finished_banner,
    job_header,
    job_row,
    job_rows_compact,
    pending_banner,
    queue_header,
)
from clients.qstat_render.xml import SCHEMA, job_element, queue_element
from qmaster.qstat_wire import expand

Row = dict[str, Any]
Write = Callable[[str], object]


class ListingWriter:
    """Writes one listing: :meth:`head` once, :meth:`rows` per batch, :meth:`end` once."""

    def __init__(
        self,
        write: Write,
        *,
        fmt: str,
        full: bool,
        layout: Layout | None,
        queues: Sequence[Row] | None,
    ) -> None:
        self.write = write
        self.xml = fmt == "xml"
        self.full = full
        self.queues = list(queues or [])
        self.layout = replace(layout or Layout(), full=True) if full else layout
        self._header_done = False
        self._pending_done = False
        self._finished_done = False

    def _lines(self, rows: Sequence[Row]) -> str:
        if self.layout is None:
            return "".join(job_row(r) for r in rows)
        return job_block(rows, self.layout)

    def head(self, running: Sequence[Row]) -> None:
        """Everything before the rows that are in no queue (``running``: the rows in one)."""
        if self.xml:
            self._xml_head(running)
        elif self.full:
            self._full_head(running)
        elif running:
            self._list_header()
            self.write(self._lines(running))

    def _list_header(self) -> None:
        if not self._header_done:
            self._header_done = True
            self.write(job_header() if self.layout is None else header(self.layout))

    def _full_head(self, running: Sequence[Row]) -> None:
        assert self.layout is not None
        if self.queues:
            self.write(queue_header())
        for queue in self.queues:
            mine = [r for r in running if r.get("queue") == queue["name"]]
            self.write(queue_block(queue, self.layout.ext) + self._lines(mine))

    def _xml_head(self, running: Sequence[Row]) -> None:
        if self.full:
            shown = "".join(queue_element(q, running, 4) for q in self.queues)
        else:
            shown = "".join(job_element(r, 4) for r in running)
        self.write(
            "<?xml version='1.0'?>\n"
            f"<job_info  xmlns:xsd={quoteattr(SCHEMA)}>\n"
            f"  <queue_info>\n{shown}  </queue_info>\n"
            "  <job_info>\n"
        )

    def compact_rows(self, rows: Sequence[list[Any]]) -> None:
        """:meth:`rows` of compact rows (:mod:`qmaster.qstat_wire`); the plain listing
        prints them without making dicts of them."""
        if self.layout is None and not self.xml and not self.full:
            if rows:
                self._list_header()
                self.write(job_rows_compact(rows))
            return
        self.rows([expand(r) for r in rows])

    def rows(self, rows: Sequence[Row]) -> None:
        """A batch of rows in no queue (pending, then finished), in order."""
        if not rows:
            return
        if self.xml:
            self.write("".join(job_element(r, 4, self.full) for r in rows))
        elif self.full:
            self._full_rows(rows)
        else:
            self._list_header()
            self.write(self._lines(rows))

    def _full_rows(self, rows: Sequence[Row]) -> None:
        assert self.layout is not None
        ext = self.layout.ext
        pending = [r for r in rows if r.get("state") != "z"]
        if pending:
            if not self._pending_done:
                self._pending_done = True
                self.write(pending_banner(ext))
            self.write(self._lines(pending))
        finished = [r for r in rows if r.get("state") == "z"]
        if finished:
            if not self._finished_done:
                self._finished_done = True
                self.write(finished_banner(ext))
            self.write(self._lines(finished))

    def end(self) -> None:
        """What closes the listing."""
        if self.xml:
            self.write("  </job_info>\n</job_info>\n")
