"""JSV throughput: verifications per second through a server JSV pool of 2.

``run(n_jobs, concurrency)`` measures (a) the Python example JSV, (b) the
Bourne-shell template and (c) no JSV, and splits the JSV time into the codec
(our parsing and encoding) and the rest (pipe round trips and the script's own
work). Run it alone with ``python -m bench.jsv_bench [n_jobs] [concurrency]``.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from qmaster.jsv.pool import JsvPool
from qmaster.jsv.protocol import JsvContext

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "jsv"
SCRIPTS: dict[str, str | None] = {
    "python": str(EXAMPLES / "example_jsv.py"),
    "shell": str(EXAMPLES / "jsv.sh"),
    "none": None,
}
SHELL_JOBS_MAX = 300  # the shell template forks per parameter lookup; keep its run short
CTX = JsvContext(user="bench", group="bench", client="qsub", context="master", job_id=1)
SPEC: dict[str, Any] = {
    "CMDNAME": "/home/bench/job.sh",
    "CMDARGS": ["60"],
    "N": "bench",
    "l_hard": {"mem_free": "1G"},
    "q_hard": ["all.q"],
    "pe_name": "mpi",
    "pe_min": 2,
    "pe_max": 4,
}


async def _measure(url: str | None, n_jobs: int, concurrency: int) -> dict[str, Any]:
    pool = JsvPool(url, size=2, timeout=10.0, threshold_ms=60_000)
    await pool.start()
    try:
        for _ in range(10):  # warm up both processes
            await pool.verify(SPEC, CTX)
        before = pool.stats()
        gate = asyncio.Semaphore(concurrency)
        accepted = 0

        async def one() -> None:
            nonlocal accepted
            async with gate:
                verdict = await pool.verify(SPEC, CTX)
            accepted += verdict.accepted

        began = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(n_jobs)))
        elapsed = time.perf_counter() - began
        after = pool.stats()
    finally:
        await pool.close()
    codec = after.codec_s - before.codec_s
    busy = after.wait_s - before.wait_s
    return {
        "jobs": n_jobs,
        "accepted": accepted,
        "seconds": round(elapsed, 4),
        "jobs_per_s": round(n_jobs / elapsed, 1),
        "codec_us_per_job": round(codec / n_jobs * 1e6, 1),
        "pipe_and_script_us_per_job": round(max(0.0, busy - codec) / n_jobs * 1e6, 1),
        "restarts": after.restarts - before.restarts,
    }


def run(n_jobs: int = 2000, concurrency: int = 8) -> dict[str, Any]:
    """Verifications per second with the Python JSV, the shell JSV and none."""
    out: dict[str, Any] = {"pool_size": 2, "concurrency": concurrency}
    for label, url in SCRIPTS.items():
        jobs = min(n_jobs, SHELL_JOBS_MAX) if label == "shell" else n_jobs
        out[label] = asyncio.run(_measure(url, jobs, concurrency))
    return out


# A job that follows the example policy (it has an h_rt), so the JSV accepts it as it is.
DAEMON_JOB: dict[str, Any] = {
    "job": {"CMDNAME": "true", "b": True, "l_hard": {"h_rt": "0:10:0"}},
    "verify": "n",
}


def daemon_rates(seconds: float = 3.0, clients: int = 8) -> dict[str, float]:
    """Submissions per second through a running qmaster with each server JSV, 8 clients."""
    import tempfile

    from bench.common import running_cell, set_conf_value
    from bench.gdi_bench import acknowledged, drive

    rates: dict[str, float] = {}
    for label, url in SCRIPTS.items():
        with tempfile.TemporaryDirectory(prefix="minige-jsvbench-") as tmp:
            root = Path(tmp)
            with running_cell(root) as cell:
                if url is not None:
                    conf = cell.run("qconf", "-sconf", check=True).stdout
                    path = root / "global.conf"
                    path.write_text(conf)
                    set_conf_value(path, "jsv_url", url)
                    set_conf_value(path, "qmaster_params", "jsv_threshold=60000")
                    cell.run("qconf", "-Mconf", str(path), check=True)
                socket = cell.cell.socket
                opts: dict[str, Any] = {"reconnect": False, "check": acknowledged, "procs": True}
                drive(socket, clients, 0.5, submit=DAEMON_JOB, **opts)
                load = drive(socket, clients, seconds, submit=DAEMON_JOB, **opts)
                rates[label] = load.rate
    return rates


def main(argv: list[str]) -> int:
    """Print the pool's verification rates and the daemon's submission rates with each JSV."""
    from bench.common import Row, print_table

    n_jobs = int(argv[0]) if argv else 2000
    concurrency = int(argv[1]) if len(argv) > 1 else 8
    pool = run(n_jobs, concurrency)
    print_table(
        f"JSV pool of 2, {concurrency} concurrent verifications (no daemon)",
        [
            Row(
                f"verifications/s, {label} JSV",
                pool[label]["jobs_per_s"],
                "/s",
                pool["none"]["jobs_per_s"] if label != "none" else None,
                "no JSV",
            )
            for label in ("python", "shell", "none")
        ],
    )
    for label in ("python", "shell"):
        r = pool[label]
        print(
            f"  {label}: codec {r['codec_us_per_job']} µs/job, pipe round trip and script "
            f"{r['pipe_and_script_us_per_job']} µs/job, restarts {r['restarts']}"
        )
    rates = daemon_rates()
    print_table(
        "Submissions through the qmaster with a server JSV pool of 2, 8 clients",
        [
            Row(
                "submit/s, Python example JSV",
                rates["python"],
                "/s",
                rates["none"],
                "no JSV",
                "≥ 2,000/s",
                rates["python"] >= 2000,
            ),
            Row("submit/s, shell template JSV", rates["shell"], "/s", rates["none"], "no JSV"),
            Row("submit/s, no JSV", rates["none"], "/s"),
        ],
    )
    return 0


if __name__ == "__main__":
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    sys.exit(main(sys.argv[1:]))
