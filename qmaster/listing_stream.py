"""The daemon's side of a streamed ``job_list`` (qstat): one frame per chunk of rows.

The core answers a ``job_list`` asked with ``chunk`` by a
:class:`~qmaster.core.qstat_rows.ChunkedListing`; its frames go out one at a
time, the event loop serving other requests between them, and the rows of a
frame are worked out only when it is due. A client that goes away stops it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from qmaster.core.qstat_rows import ChunkedListing
from qmaster.gdi.answers import Answer
from qmaster.gdi.server import Reply, Stream


def listing_stream(answers: list[Answer], listing: ChunkedListing) -> Stream:
    """The frames of ``listing``: the first with ``answers``, the last with ``more`` false."""

    async def replies() -> AsyncIterator[Reply]:
        first = True
        for data in listing.frames():
            yield Reply(answers if first else [], data)
            first = False
            await asyncio.sleep(0)  # let other requests in between two frames

    def stop() -> None:
        listing.stopped = True

    return Stream(replies(), stop)
