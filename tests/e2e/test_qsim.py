"""qsim end to end: the installed command on the golden trace, and qacct -f on its output."""

from __future__ import annotations

import fcntl
import gzip
import os
import pty
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "sim"
CELL = EXAMPLES / "cell"
GOLDEN = EXAMPLES / "golden.swf"
OUTPUTS = ("accounting", "reporting", "trace.swf", "summary.txt", "summary.json")
PLOTS = ("utilisation.png", "queue_length.png", "wait_by_size.png")

pytestmark = pytest.mark.timeout(120)


def qsim(
    *argv: str, env: dict[str, str] | None = None, plots: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run qsim; a replay draws its plots only when the test looks at them (a second each)."""
    extra = [] if plots or argv[:1] != ("run",) else ["--no-plots"]
    return subprocess.run(
        ["qsim", *argv, *extra], capture_output=True, text=True, env=env, timeout=100, check=False
    )


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def test_golden_replay_and_qacct(tmp_path: Path) -> None:
    """qsim writes the expected accounting file, prints its summary, and qacct -f reads it."""
    out = tmp_path / "out"
    done = qsim("run", str(GOLDEN), "--cell", str(CELL), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert (out / "accounting").read_bytes() == (EXAMPLES / "golden.accounting").read_bytes()
    for name in OUTPUTS:
        assert (out / name).stat().st_size > 0
    assert not [p for p in out.iterdir() if p.suffix == ".png"]  # --no-plots
    assert "plots" not in done.stdout
    assert "ended           18\n" in done.stdout
    assert "never started   1\n" in done.stdout
    assert "qsim: line 19: job 10: run time unknown" in done.stderr
    qacct = subprocess.run(
        ["qacct", "-f", str(out / "accounting"), "-j", "5"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert qacct.returncode == 0, qacct.stderr
    fields = dict(line.split(None, 1) for line in qacct.stdout.splitlines() if " " in line)
    assert fields["jobname"].strip() == "swf5"
    assert fields["exit_status"].strip() == "137"
    assert fields["ru_wallclock"].strip() == "600"
    total = subprocess.run(
        ["qacct", "-f", str(out / "accounting")], capture_output=True, text=True, check=False
    )
    assert total.returncode == 0
    assert "WALLCLOCK" in total.stdout


def test_same_trace_same_bytes(tmp_path: Path) -> None:
    """Two replays (different hash seeds) of the same trace, cell and seed write identical files."""
    names = OUTPUTS + (PLOTS if has_matplotlib() else ())
    runs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        args = ("run", str(GOLDEN), "--cell", str(CELL), "--out", str(out), "--seed", "5")
        done = qsim(*args, env=env, plots=True)
        assert done.returncode == 0, done.stderr
        runs.append({name: (out / name).read_bytes() for name in names})
    assert runs[0] == runs[1]


def test_without_matplotlib_plots_are_skipped(tmp_path: Path) -> None:
    """Without the minige[sim] extra the replay still runs and says why there are no plots."""
    blocker = tmp_path / "block"
    (blocker / "matplotlib").mkdir(parents=True)
    (blocker / "matplotlib" / "__init__.py").write_text("raise ImportError('blocked')\n")
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    out = tmp_path / "out"
    done = qsim("run", str(GOLDEN), "--cell", str(CELL), "--out", str(out), env=env, plots=True)
    assert done.returncode == 0, done.stderr
    assert "plots skipped: matplotlib is not installed (pip install 'minige[sim]')" in done.stdout
    assert not (out / "utilisation.png").exists()


def test_gzipped_swf_and_accounting_as_traces(tmp_path: Path) -> None:
    """A gzipped SWF replays like the plain one; an accounting file replays as a trace."""
    packed = tmp_path / "golden.swf.gz"
    packed.write_bytes(gzip.compress(GOLDEN.read_bytes()))
    done = qsim("run", str(packed), "--cell", str(CELL), "--out", str(tmp_path / "gz"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "gz" / "accounting").read_bytes() == (
        EXAMPLES / "golden.accounting"
    ).read_bytes()
    acct = EXAMPLES / "golden.accounting"
    again = qsim("run", str(acct), "--cell", str(CELL), "--out", str(tmp_path / "acct"))
    assert again.returncode == 0, again.stderr
    assert "jobs            18\n" in again.stdout
    assert "ended           18\n" in again.stdout


def test_bad_inputs_are_refused(tmp_path: Path) -> None:
    """A broken cell file, a bad --until and a malformed trace end qsim with a clear message."""
    cell = tmp_path / "cell"
    shutil.copytree(CELL, cell)
    (cell / "sched_configuration").write_text("schedule_interval  soon\n")
    done = qsim("run", str(GOLDEN), "--cell", str(cell), "--out", str(tmp_path / "o"))
    assert done.returncode == 1
    assert done.stderr.startswith(f"qsim: {cell / 'sched_configuration'}:")
    until = qsim("run", str(GOLDEN), "--cell", str(CELL), "--until", "later")
    assert until.returncode == 2
    assert "--until" in until.stderr
    bad = tmp_path / "bad.swf"
    bad.write_text("1 2 3\n")
    broken = qsim("run", str(bad), "--cell", str(CELL), "--out", str(tmp_path / "b"))
    assert broken.returncode == 1
    assert broken.stderr == "qsim: line 1: expected 18 fields, got 3\n"


def test_progress_bar_only_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal stderr shows a progress bar (jobs, rate); redirected, stderr has none."""
    pytest.importorskip("tqdm")
    args = ["qsim", "run", str(GOLDEN), "--cell", str(CELL), "--out", str(tmp_path / "t")]
    args.append("--no-plots")
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=child)
    os.close(child)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    assert proc.wait(timeout=60) == 0
    assert b"job/s" in seen
    plain = qsim(*args[1:])
    assert "job/s" not in plain.stderr


def test_qsim_imports_none_of_the_daemons_io() -> None:
    """qsim and a replay load no asyncio, uvloop, GDI server or spool code."""
    code = (
        "import sys; from pathlib import Path; from qmaster.sim.replay import replay, ReplayOptions;"
        "import qmaster.sim.cli;"
        f"replay(ReplayOptions(Path({str(GOLDEN)!r}), Path({str(CELL)!r}), None, plots=False));"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('asyncio', 'uvloop') or m in"
        " ('qmaster.daemon', 'qmaster.gdi.server', 'qmaster.gdi.connection')"
        " or m.startswith('qmaster.spool')]; print(bad)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_server_jsv_decides_what_is_replayed(tmp_path: Path) -> None:
    """--jsv runs a real server JSV: it rejects jobs over 16 slots with its own message and
    gives jobs without h_rt its default, which then ends the long one at an hour."""
    jsv = ROOT / "examples" / "jsv" / "example_jsv.py"
    out = tmp_path / "out"
    done = qsim("run", str(GOLDEN), "--cell", str(CELL), "--out", str(out), "--jsv", str(jsv))
    assert done.returncode == 0, done.stderr
    assert "refused         3\n" in done.stdout
    assert "3 x parallel jobs may use at most 16 slots" in done.stdout
    lines = (out / "accounting").read_text().splitlines()
    long_job = next(line.split(":") for line in lines if ":swf16:" in line)
    assert (long_job[12], long_job[13]) == ("137", "3600")  # exit status, ru_wallclock
    missing = qsim("run", str(GOLDEN), "--cell", str(CELL), "--jsv", str(tmp_path / "none.py"))
    assert missing.returncode == 1
    assert missing.stderr.endswith(f'qsim: JSV file "{tmp_path / "none.py"}" does not exist\n')


def test_seg_reads_the_replays_reporting_file(tmp_path: Path) -> None:
    """seg follows a replay's reporting file as it follows a live cell's: job 1 is submitted,
    started and ended at its simulated times."""
    out = tmp_path / "out"
    done = qsim("run", str(GOLDEN), "--cell", str(CELL), "--out", str(out))
    assert done.returncode == 0, done.stderr
    seg = subprocess.Popen(
        ["seg", "-s", "minige", "-r", str(out / "reporting"), "-t", "0", "-p", "0.1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert seg.stdout is not None
    lines: list[str] = []
    try:
        while len(lines) < 3:
            line = seg.stdout.readline()
            if not line:
                break
            if line.split(";")[2] == "1":
                lines.append(line.strip())
    finally:
        seg.terminate()
        seg.wait(timeout=10)
        seg.stdout.close()
    start = 1767225600
    # job 1: submitted (1) and started (2) at second 0, done (8) after its 600 s run
    assert lines == [f"001;{start};1;1;0", f"001;{start};1;2;0", f"001;{start + 600};1;8;0"]


WAIT_JSV = """#!{python}
import sys
sys.path.insert(0, {examples!r})
import minige_jsv

seen = set()


def on_verify(jsv):
    name = jsv.get_param("N")
    if name == "swf1" and name not in seen:
        seen.add(name)
        jsv.reject_wait("come back later")
        return
    jsv.accept()


minige_jsv.main(on_verify)
"""


def test_reject_wait_jobs_are_verified_again(tmp_path: Path) -> None:
    """A job the JSV answers REJECT_WAIT waits for verification (jsv_reject_wait_retries) and
    is asked again after the backoff, as the daemon does; it then runs."""
    cell = tmp_path / "cell"
    shutil.copytree(CELL, cell)
    conf = cell / "configuration"
    text = conf.read_text()
    text = text.replace("jsv_reject_wait_retries      0", "jsv_reject_wait_retries      2")
    text = text.replace(
        "jsv_reject_wait_backoff      00:00:10", "jsv_reject_wait_backoff      00:01:40"
    )
    conf.write_text(text)
    script = tmp_path / "wait_jsv.py"
    script.write_text(
        WAIT_JSV.format(python=sys.executable, examples=str(ROOT / "examples" / "jsv"))
    )
    script.chmod(0o755)
    out = tmp_path / "out"
    done = qsim("run", str(GOLDEN), "--cell", str(cell), "--out", str(out), "--jsv", str(script))
    assert done.returncode == 0, done.stderr
    assert "refused         0\n" in done.stdout
    first = next(
        line.split(":")
        for line in (out / "accounting").read_text().splitlines()
        if ":swf1:" in line
    )
    # verified again 100 s after submission; without the wait it started at once (golden)
    assert int(first[9]) - int(first[8]) >= 100
