"""A real server JSV sees and changes the 6.2u5 job parameters; bad values are refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.integration.live import LiveDaemon, job

pytestmark = pytest.mark.timeout(90)

INCLUDE = Path(__file__).resolve().parents[3] / "examples" / "jsv" / "jsv_include.sh"

# Records what it saw in the job context and sets tc / binding_amount, or a bad value.
JSV = r"""#!/bin/sh
. "{include}"
jsv_on_start() {{ return; }}
jsv_on_verify() {{
   jsv_sub_add_param ac SAW "`jsv_get_param js`/`jsv_get_param binding_strategy`/`jsv_get_param hold_jid_ad`/`jsv_get_param i`"
   case "`jsv_get_param N`" in
      bad) jsv_set_param binding_strategy sideways ;;
      *) jsv_set_param tc 2; jsv_set_param binding_amount 3 ;;
   esac
   jsv_correct
}}
jsv_main
"""


def _use_jsv(live: LiveDaemon, tmp_path: Path) -> None:
    script = tmp_path / "params.sh"
    script.write_text(JSV.format(include=INCLUDE))
    script.chmod(0o755)
    text = live.call("conf_show", {"kind": "global", "name": None}).data["text"]
    text = re.sub(r"^jsv_url\s+.*$", f"jsv_url {script}", text, flags=re.M)
    assert live.call("conf_modify", {"kind": "global", "text": text, "source": "t"}).ok


BINDING = {"binding_type": "set", "binding_strategy": "linear_automatic", "binding_amount": 1}


def test_server_jsv_reads_and_sets_new_parameters(live: LiveDaemon, tmp_path: Path) -> None:
    """js, binding_*, hold_jid_ad, i reach the JSV; its tc and binding_amount stick."""
    _use_jsv(live, tmp_path)
    spec = {**BINDING, "js": 7, "hold_jid_ad": ["3"], "i": ["in"], "t_min": 1, "t_max": 2}
    reply = live.call("submit", job("1", h=True, **spec))
    assert reply.ok, reply.answers
    detail = live.call("job_detail", {"job_ids": [str(reply.data["job_id"])]}).data["jobs"][0]
    stored = detail["job"]
    assert stored["ac"]["SAW"] == "7/linear_automatic/3/in"
    assert (stored["tc"], stored["binding_amount"]) == (2, 3)


def test_server_jsv_bad_value_is_refused(live: LiveDaemon, tmp_path: Path) -> None:
    """A binding strategy the JSV makes up is refused as qsub would refuse it; no job is kept."""
    _use_jsv(live, tmp_path)
    reply = live.call("submit", job("1", N="bad", **BINDING))
    assert not reply.ok
    assert "Wrong binding format" in reply.answers[0].text
    assert live.call("job_list", {"users": None}).data["jobs"] == []


def test_qalter_context_change_passes_the_server_jsv(live: LiveDaemon, tmp_path: Path) -> None:
    """qalter -dc a with a server JSV deletes a from the job's own context and keeps the rest."""
    _use_jsv(live, tmp_path)
    spec = {**BINDING, "ac": {"a": "1", "b": "2"}}
    job_id = live.call("submit", job("1", h=True, **spec)).data["job_id"]
    ops = {"context_ops": [["-", "a", "9"]]}
    reply = live.call("alter", {"job_ids": [str(job_id)], "job": ops})
    assert [a.text for a in reply.answers] == [f"modified context of job {job_id}"]
    stored = live.call("job_detail", {"job_ids": [str(job_id)]}).data["jobs"][0]["job"]
    assert stored["ac"]["b"] == "2"
    assert "a" not in stored["ac"]
