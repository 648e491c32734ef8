"""Client JSVs in qsub and qalter as a user meets them: order, corrections, rejections, -terse."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(90)

INCLUDE = Path(__file__).resolve().parents[2] / "examples" / "jsv" / "jsv_include.sh"

# Appends its tag to the job context variable "chain" and says so in a LOG line.
TAGGER = r"""#!/bin/sh
. "{include}"
jsv_on_start() {{ return; }}
jsv_on_verify() {{
   if [ "`jsv_get_param N`" = "forbidden" ]; then
      jsv_reject "{tag} refuses forbidden jobs"
      return
   fi
   before=`jsv_sub_get_param ac chain`
   jsv_sub_add_param ac chain "${{before}}{tag}"
   jsv_log_info "{tag} saw the job"
   jsv_correct
}}
jsv_main
"""


def tagger(directory: Path, tag: str) -> Path:
    path = directory / f"{tag}.sh"
    path.write_text(TAGGER.format(include=INCLUDE, tag=tag))
    path.chmod(0o755)
    return path


def context(cell: RunningCell, job: str) -> str:
    out = cell.run("qstat", "-j", job).stdout
    line = next(x for x in out.splitlines() if x.startswith("context:"))
    return line.split(None, 1)[1]


def test_command_line_jsv_runs_before_the_request_file_ones(
    minige_cell: RunningCell, tmp_path: Path
) -> None:
    """-jsv on the command line runs first, then ./.sge_request's, then ~/.sge_request's."""
    work = tmp_path / "work"
    work.mkdir()
    (work / ".sge_request").write_text(f"-jsv {tagger(tmp_path, 'cwd')}\n")
    home = Path(minige_cell.env["HOME"])
    (home / ".sge_request").write_text(f"-jsv {tagger(tmp_path, 'home')}\n")
    result = minige_cell.run(
        "qsub", "-jsv", str(tagger(tmp_path, "cmd")), "-h", "-b", "y", "sleep", "1", cwd=work
    )
    assert result.returncode == 0, result.stderr
    assert "cmd saw the job" in result.stdout
    assert context(minige_cell, "1") == "chain=cmdcwdhome"


def test_rejection_stops_the_submission(minige_cell: RunningCell, tmp_path: Path) -> None:
    """A client JSV's REJECT ends qsub with its message and exit 1; nothing is submitted."""
    result = minige_cell.run(
        "qsub", "-jsv", str(tagger(tmp_path, "cmd")), "-N", "forbidden", "-b", "y", "sleep", "1"
    )
    assert result.returncode == 1
    assert result.stderr == "Unable to run job: cmd refuses forbidden jobs.\nExiting.\n"
    assert minige_cell.run("qstat").stdout == ""


def test_terse_hides_the_jsv_messages(minige_cell: RunningCell, tmp_path: Path) -> None:
    """With -terse qsub prints only the id, not the JSV's LOG lines."""
    result = minige_cell.run(
        "qsub", "-terse", "-jsv", str(tagger(tmp_path, "cmd")), "-h", "-b", "y", "sleep", "1"
    )
    assert result.stdout == "1\n"


def test_qalter_runs_client_jsvs_on_the_change(minige_cell: RunningCell, tmp_path: Path) -> None:
    """qalter -jsv verifies the modification; a rejection leaves the job as it was."""
    assert minige_cell.run("qsub", "-h", "-b", "y", "sleep", "1").returncode == 0
    refused = minige_cell.run(
        "qalter", "-jsv", str(tagger(tmp_path, "cmd")), "-N", "forbidden", "1"
    )
    assert refused.returncode == 1
    assert "cmd refuses forbidden jobs" in refused.stderr
    assert "job_name:                   sleep" in minige_cell.run("qstat", "-j", "1").stdout


GE_STYLE = r"""#!/bin/sh
jsv_on_start()
{
   return
}

jsv_on_verify()
{
   if [ "`jsv_get_param b`" = "y" ]; then
      jsv_reject "binary jobs are not allowed here"
      return
   fi
   jsv_log_info "looked at `jsv_get_param N`"
   jsv_accept "this message is not shown"
}

. ${SGE_ROOT}/util/resources/jsv/jsv_include.sh

jsv_main
"""


def test_script_sourcing_the_cells_include_runs_unmodified(
    minige_cell: RunningCell, tmp_path: Path
) -> None:
    """A Grid Engine style JSV that sources $SGE_ROOT/util/resources/jsv/jsv_include.sh works."""
    script = tmp_path / "ge_style.sh"
    script.write_text(GE_STYLE)
    script.chmod(0o755)
    refused = minige_cell.run("qsub", "-jsv", str(script), "-b", "y", "sleep", "1")
    assert refused.returncode == 1
    assert refused.stderr == "Unable to run job: binary jobs are not allowed here.\nExiting.\n"
    job = tmp_path / "job.sh"
    job.write_text("#!/bin/sh\nsleep 1\n")
    accepted = minige_cell.run("qsub", "-jsv", str(script), str(job), cwd=tmp_path)
    assert accepted.returncode == 0, accepted.stderr
    assert accepted.stdout.splitlines() == [
        "looked at job.sh",
        'Your job 1 ("job.sh") has been submitted',
    ]


SETS_A = r"""#!/bin/sh
. "{include}"
jsv_on_start() {{ return; }}
jsv_on_verify() {{ jsv_set_param a troete; jsv_correct; }}
jsv_main
"""


def test_client_jsv_bad_value_fails_like_the_typed_option(
    minige_cell: RunningCell, tmp_path: Path
) -> None:
    """A client JSV's PARAM a troete ends qsub exactly as qsub -a troete does: same text, exit."""
    script = tmp_path / "sets_a.sh"
    script.write_text(SETS_A.format(include=INCLUDE))
    script.chmod(0o755)
    typed = minige_cell.run("qsub", "-a", "troete", "-b", "y", "sleep", "1")
    via_jsv = minige_cell.run("qsub", "-jsv", str(script), "-b", "y", "sleep", "1")
    assert typed.returncode == via_jsv.returncode == 7  # the parser's STATUS_ESYNTAX
    assert via_jsv.stderr == typed.stderr
    assert 'Wrong date/time format "troete" specified to -a option' in typed.stderr
    assert minige_cell.run("qstat").stdout == ""


def test_qconf_refuses_a_bad_jsv_url_and_stores_nothing(
    minige_cell: RunningCell, tmp_path: Path
) -> None:
    """qconf -Mconf with jsv_url java:/x says why, exits 1, and the configuration stays as it was."""
    before = minige_cell.run("qconf", "-sconf").stdout
    lines = [
        "jsv_url java:/opt/jsv" if ln.split()[:1] == ["jsv_url"] else ln
        for ln in before.splitlines()
    ]
    path = tmp_path / "global.conf"
    path.write_text("\n".join(lines) + "\n")
    result = minige_cell.run("qconf", "-Mconf", str(path))
    assert result.returncode == 1
    assert 'type "java" in JSV URL is invalid' in result.stderr
    assert "closed the connection" not in result.stderr
    assert minige_cell.run("qconf", "-sconf").stdout == before
