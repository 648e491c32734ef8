"""The Job State Monitor: ``seg`` events routed to the keys of registered jobs.

Standard library only, **thread-based** (as the SEG design has it: one thread
always blocked reading ``seg``'s standard output), so it can live in any
program, asyncio or not.

Theory of operation.

- A supervisor thread starts the ``seg`` command with ``-c -t CURSOR`` and
  reads its ``001`` messages. When ``seg`` ends for any reason other than
  :meth:`JobStateMonitor.stop`, it is started again after ``restart_delay``
  seconds, from the current datum; messages at or before the last one
  already handled are dropped, so a restart neither loses nor repeats events.
- The registry maps a local job id (``"42"``, ``"42.7"`` for an array task)
  to a caller's key. A message for a registered id goes to the listener as
  ``listener(key, timestamp, state, exit_code)``.
- A message for an id nobody registered goes to the soft-state cache. When
  the id is registered later, its cached messages are replayed to the
  listener in order. Messages unclaimed for ``cache_ttl`` seconds are
  dropped (checked by a second thread every ``cache_ttl / 4`` seconds).
- The one persistent datum, kept in ``datum_path`` (one line, a ``seg``
  cursor ``T.K``), is the position just before the oldest cached message —
  or, with an empty cache, the last message handled. A JSM started again
  with the same file asks ``seg`` to replay from there, so unclaimed events
  survive a restart of the JSM.

The listener runs on the reader thread (or, for cache replays, on the thread
that calls :meth:`register`) with the monitor's lock held, so a job's events
reach it in order; it may call :meth:`register`/:meth:`unregister`, and it
should return quickly.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

from qmaster.events.seg import Cursor, CursorError, SegEvent, parse_message

Listener = Callable[[Hashable, int, int, int], None]
log = logging.getLogger("minige.jsm")


class AlreadyRegisteredError(KeyError):
    """The local job id is already mapped to a key."""


class NotRegisteredError(KeyError):
    """The local job id is not mapped to a key."""


@dataclass(slots=True)
class _Cached:
    arrived: float
    event: SegEvent


def load_datum(path: Path) -> Cursor | None:
    """The persisted cursor, or ``None`` when there is none (or it is unreadable)."""
    try:
        return Cursor.parse(path.read_text().strip())
    except (OSError, CursorError):
        return None


def save_datum(path: Path, cursor: Cursor) -> None:
    """Persist the cursor atomically (write, fsync, rename)."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w") as fh:
        fh.write(f"{cursor}\n")
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


class JobStateMonitor:
    """Starts ``seg``, keeps it running, and dispatches its events to registered keys."""

    def __init__(
        self,
        seg_command: Sequence[str],
        datum_path: Path,
        listener: Listener,
        *,
        cache_ttl: float = 3600.0,
        restart_delay: float = 1.0,
        start: Cursor | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seg_command = list(seg_command)
        self.datum_path = Path(datum_path)
        self.listener = listener
        self.cache_ttl = cache_ttl
        self.restart_delay = restart_delay
        self.clock = clock
        self.seg_starts = 0
        self._lock = threading.RLock()
        self._registry: dict[str, Hashable] = {}
        self._cache: dict[str, list[_Cached]] = {}
        self._last: Cursor | None = load_datum(self.datum_path) or start
        self._datum: Cursor | None = self._last
        self._stopping = threading.Event()
        self._proc: subprocess.Popen[bytes] | None = None
        self._threads: list[threading.Thread] = []

    # -- lifecycle -------------------------------------------------------

    def start(self) -> None:
        """Start ``seg`` and the threads that watch it and the cache."""
        for name, target in (("jsm-seg", self._supervise), ("jsm-expiry", self._expire_loop)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self, timeout: float = 5.0) -> None:
        """Close ``seg``'s input (it exits), wait for it and the threads."""
        self._stopping.set()
        proc = self._proc
        if proc is not None:
            with contextlib.suppress(OSError):
                assert proc.stdin is not None
                proc.stdin.close()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.terminate()
                proc.wait(timeout)
        for thread in self._threads:
            thread.join(timeout)

    def __enter__(self) -> JobStateMonitor:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def seg_pid(self) -> int | None:
        """The process id of the running ``seg``, if any."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    # -- registry --------------------------------------------------------

    def register(self, local_id: str, key: Hashable) -> None:
        """Map ``local_id`` to ``key``; cached events for it are delivered now."""
        with self._lock:
            if local_id in self._registry:
                raise AlreadyRegisteredError(local_id)
            self._registry[local_id] = key
            for cached in self._cache.pop(local_id, []):
                self._deliver(key, cached.event)
            self._update_datum()

    def unregister(self, local_id: str) -> None:
        """Stop delivering events for ``local_id``."""
        with self._lock:
            if self._registry.pop(local_id, None) is None:
                raise NotRegisteredError(local_id)

    def cached(self, local_id: str) -> list[SegEvent]:
        """The unclaimed events held for ``local_id``."""
        with self._lock:
            return [c.event for c in self._cache.get(local_id, [])]

    @property
    def datum(self) -> Cursor | None:
        """Where a restarted ``seg`` (or JSM) replays from."""
        with self._lock:
            return self._datum

    def expire(self, now: float | None = None) -> int:
        """Drop cached events older than ``cache_ttl``; how many were dropped."""
        now = self.clock() if now is None else now
        dropped = 0
        with self._lock:
            for job in list(self._cache):
                keep = [c for c in self._cache[job] if now - c.arrived < self.cache_ttl]
                dropped += len(self._cache[job]) - len(keep)
                if keep:
                    self._cache[job] = keep
                else:
                    del self._cache[job]
            if dropped:
                self._update_datum()
        return dropped

    # -- events ----------------------------------------------------------

    def handle_line(self, line: str) -> None:
        """Handle one line of ``seg`` output (public so tests can feed lines)."""
        event = parse_message(line)
        if event is None:
            return
        with self._lock:
            cursor = event.cursor
            if cursor is not None:
                if self._last is not None and cursor <= self._last:
                    return  # replayed after a restart: already handled
                self._last = cursor
            key = self._registry.get(event.job_id)
            if key is None:
                self._cache.setdefault(event.job_id, []).append(_Cached(self.clock(), event))
            else:
                self._deliver(key, event)
            self._update_datum()

    def _deliver(self, key: Hashable, event: SegEvent) -> None:
        try:
            self.listener(key, event.timestamp, event.state, event.exit_code)
        except Exception:
            log.exception("jsm_listener_failed")

    def _update_datum(self) -> None:
        # each job's list is in arrival order, so its first entry is its oldest
        oldest = [items[0].event.cursor for items in self._cache.values() if items[0].event.cursor]
        if oldest:
            first = min(oldest)
            datum: Cursor | None = Cursor(first.time, first.index - 1)
        else:
            datum = self._last
        if datum is not None and datum != self._datum:
            self._datum = datum
            try:
                save_datum(self.datum_path, datum)
            except OSError:
                log.exception("jsm_datum_write_failed")

    # -- threads ---------------------------------------------------------

    def _command(self) -> list[str]:
        start = self.datum
        return [*self.seg_command, "-c", *(["-t", str(start)] if start else [])]

    def _supervise(self) -> None:
        while not self._stopping.is_set():
            try:
                proc = subprocess.Popen(
                    self._command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE
                )
            except OSError:
                log.exception("jsm_seg_start_failed")
                self._stopping.wait(self.restart_delay)
                continue
            self._proc = proc
            self.seg_starts += 1
            with proc:  # closes the pipes and waits
                assert proc.stdout is not None
                for raw in proc.stdout:
                    self.handle_line(raw.decode(errors="replace"))
            if not self._stopping.is_set():
                log.warning("jsm_seg_restarted exit=%s", proc.returncode)
                self._stopping.wait(self.restart_delay)

    def _expire_loop(self) -> None:
        interval = max(self.cache_ttl / 4, 0.05)
        while not self._stopping.wait(interval):
            self.expire()
