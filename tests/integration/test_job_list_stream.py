"""qstat's streamed job list over the real socket: frames of rows, other requests in between."""

from __future__ import annotations

from qmaster.gdi.client import Connection
from tests.integration.live import LiveDaemon


def test_listing_comes_in_frames_and_other_requests_are_served_meanwhile(
    live: LiveDaemon,
) -> None:
    """A listing of 7 jobs in frames of 2 rows: 4 frames, the last without "more"; a qsub
    sent while the listing is half read is answered at once."""
    for n in range(7):
        reply = live.call("submit", {"job": {"CMDNAME": "x", "h": True, "N": f"j{n}"}})
        assert reply.ok, reply.answers
    args = {"users": None, "compact": True, "chunk": 2, "running_first": True}
    with Connection(live.socket_path) as conn:
        first = conn.call("job_list", args)
        assert first.ok
        assert first.data["more"] is True
        assert first.data["job_rows"] == []  # no job runs: no rows in a queue
        second = conn.receive()
        assert second is not None
        assert live.call("submit", {"job": {"CMDNAME": "x", "h": True}}).ok
        frames = [second]
        while frames[-1].data["more"]:
            reply = conn.receive()
            assert reply is not None
            frames.append(reply)
        assert conn.receive() is None  # the qmaster closes the connection after the last
    ids = [row[0] for frame in frames for row in frame.data["job_rows"]]
    assert ids == list(range(1, 8))
    assert [len(f.data["job_rows"]) for f in frames] == [2, 2, 2, 1]
