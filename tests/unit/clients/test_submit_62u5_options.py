"""The 6.2u5 submit options qsub and qalter take, stored under their JSV parameter names."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.common.errors import OptionError
from clients.qsub import asks_for_help_with_files
from clients.submit.build import build_qalter, build_qsub

from .test_submit_grammar import SCRIPT, inputs

CASES = [
    (
        ["-binding", "linear:2"],
        {"binding_type": "set", "binding_strategy": "linear_automatic", "binding_amount": 2},
    ),
    (
        ["-binding", "env", "striding:2:4:0,1"],
        {
            "binding_type": "env",
            "binding_strategy": "striding",
            "binding_amount": 2,
            "binding_step": 4,
            "binding_socket": 0,
            "binding_core": 1,
        },
    ),
    (
        ["-binding", "pe", "explicit:0,0:1,3"],
        {
            "binding_type": "pe",
            "binding_strategy": "explicit",
            "binding_exp_n": 2,
            "binding_exp_socket0": 0,
            "binding_exp_core0": 0,
            "binding_exp_socket1": 1,
            "binding_exp_core1": 3,
        },
    ),
    (["-c", "sx"], {"c_occasion": "sx"}),
    (["-c", "r"], {"c_occasion": "r"}),  # sge_parse_checkpoint_attr() takes r
    (["-c", "nr"], {"c_occasion": "nr"}),  # and any mix (the qmaster judges it)
    (["-c", "0:5:0"], {"c_interval": 300}),
    (["-ckpt", "blcr"], {"ckpt": "blcr"}),
    (["-dl", "12241800"], {"dl": "202612241800.00"}),
    (["-i", "in.txt,host:/x/in"], {"i": ["in.txt", "host:/x/in"]}),
    (["-js", "10"], {"js": 10}),
    (["-ot", "5"], {"ot": 5}),
    (["-tc", "4"], {"tc": 4}),
    (["-hold_jid_ad", "7,prep*"], {"hold_jid_ad": ["7", "prep*"]}),
]


@pytest.mark.parametrize(("argv", "keys"), CASES)
def test_new_option_stored_under_its_jsv_names(argv: list[str], keys: dict[str, object]) -> None:
    """Each option is stored as jsv(1) names it, on qsub's command line and qalter's."""
    spec = build_qsub([*argv, "job.sh"], inputs(SCRIPT)).spec
    assert {k: spec[k] for k in keys} == keys
    assert build_qalter([*argv, "1"], inputs()).spec == keys


@pytest.mark.parametrize(("argv", "keys"), CASES)
def test_new_option_means_the_same_in_every_source(
    argv: list[str], keys: dict[str, object]
) -> None:
    """A #$ line and a request file give the option the same value as the command line."""
    line = " ".join(argv)
    script = {"/work/job.sh": f"#!/bin/sh\n#$ {line}\nsleep 1\n"}
    from_script = build_qsub(["job.sh"], inputs(script)).spec
    from_file = build_qsub(["job.sh"], inputs({**SCRIPT, "/work/.sge_request": line})).spec
    assert {k: from_script[k] for k in keys} == keys
    assert {k: from_file[k] for k in keys} == keys


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-binding", "linear"], 'ERROR! Wrong binding format "linear" specified to -binding'),
        (["-binding", "set", "explicit:1"], 'Wrong binding format "set explicit:1"'),
        (["-c", "q"], "ERROR! -c specifier invalid"),
        (["-c", "0"], "ERROR! -c argument invalid"),
        (["-dl", "1301"], 'ERROR! Wrong date/time format "1301" specified to -dl option'),
        (["-js", "-3"], "ERROR! invalid jobshare, must be an unsigned integer"),
        (["-ot", "x"], "ERROR! invalid override tickets, must be an unsigned integer"),
        (["-tc", "-1"], "invalid task concurrency number -1. Must be an integer greater or"),
        (["-hold_jid_ad", ","], 'Wrong jid_hold_ad list format "," specified to -hold_jid_ad'),
        (["-o", "a:"], 'ERROR! Wrong stdout path list format "a:" specified to -o option'),
        (["-e", "h:"], 'ERROR! Wrong path list format "h:" specified to -e option'),
        (["-i", "h:"], 'ERROR! Wrong path list format "h:" specified to -e option'),
        (["-S", "a:"], 'ERROR! Wrong shell list format "a:" specified to -S option'),
    ],
)
def test_bad_values_are_refused_in_grid_engine_words(argv: list[str], message: str) -> None:
    """A bad value stops qsub with Grid Engine's message."""
    with pytest.raises(OptionError) as caught:
        build_qsub([*argv, "job.sh"], inputs(SCRIPT))
    assert message in caught.value.message


@pytest.mark.parametrize("option", ["-o", "-e", "-i", "-S"])
def test_a_path_may_hold_colons_after_the_host(option: str) -> None:
    """Issue 540: cull_parse_path_list() ends the host at the first colon; the path keeps
    the others (``:out:put.txt`` is out:put.txt on any host)."""
    spec = build_qsub([option, ":out:put.txt,h:a:b", "job.sh"], inputs(SCRIPT)).spec
    assert spec[option[1:]] == [":out:put.txt", "h:a:b"]


def test_a_later_binding_replaces_the_earlier_one() -> None:
    """-binding on the command line replaces one from a #$ line, keys and all."""
    script = {"/work/job.sh": "#$ -binding explicit:0,0:1,1\nsleep 1\n"}
    spec = build_qsub(["-binding", "linear:1", "job.sh"], inputs(script)).spec
    assert sorted(k for k in spec if k.startswith("binding_")) == [
        "binding_amount",
        "binding_strategy",
        "binding_type",
    ]


def test_binding_type_word_is_optional_before_the_script() -> None:
    """-binding linear:1 job.sh takes one word; the script still follows."""
    request = build_qsub(["-binding", "linear:1", "job.sh", "arg"], inputs(SCRIPT))
    assert request.spec["CMDNAME"] == "job.sh"
    assert request.spec["CMDARGS"] == ["arg"]


def test_delete_context_accepts_a_value_and_ignores_it() -> None:
    """qalter -dc a=1 deletes a (the value is ignored, as qsub(1) says)."""
    spec = build_qalter(["-dc", "a=1,b", "5"], inputs()).spec
    assert spec["context_ops"] == [["-", "a", "1"], ["-", "b", ""]]


def test_qsub_context_options_apply_in_order() -> None:
    """qsub -ac a=1,b=2 -dc a=9 -ac c gives b=2 and c (empty)."""
    spec = build_qsub(["-ac", "a=1,b=2", "-dc", "a=9", "-ac", "c", "job.sh"], inputs(SCRIPT))
    assert spec.spec["ac"] == {"b": "2", "c": ""}


@pytest.mark.parametrize("argv", [["-dc", "myvar,myvar2"], ["-ac", "a=1", "-dc", "a"]])
def test_qsub_context_emptied_by_dc_is_no_context(argv: list[str]) -> None:
    """Grid Engine's testsuite submits -dc myvar,myvar2: a context -dc leaves empty is
    none at all (no empty list for the qmaster to refuse as an -ac "" value)."""
    spec = build_qsub([*argv, "job.sh"], inputs(SCRIPT)).spec
    assert "ac" not in spec


def test_bare_resource_request_is_sent_for_the_qmaster_to_fill() -> None:
    """-l display_win_gui (no value) is sent empty; the qmaster fills in TRUE."""
    spec = build_qsub(["-l", "display_win_gui,arch=lx-amd64", "job.sh"], inputs(SCRIPT)).spec
    assert spec["l_hard"] == {"display_win_gui": "", "arch": "lx-amd64"}


def test_set_variable_keeps_its_environment_value() -> None:
    """-v NAME takes NAME's value from the caller's environment when it is set there."""
    spec = build_qsub(["-v", "FOO,BAR=2", "job.sh"], inputs(SCRIPT, FOO="x")).spec
    assert (spec["v"]["FOO"], spec["v"]["BAR"]) == ("x", "2")


def test_qalter_refuses_qsub_only_switches() -> None:
    """qalter has no -b and no -shell (they are qsub's only, as in parse_qsub.c)."""
    with pytest.raises(OptionError, match='invalid option argument "-b"'):
        build_qalter(["-b", "y", "1"], inputs())


def test_options_file_naming_itself_is_refused_not_read_forever() -> None:
    """A -@ file that names itself (directly or through another) stops with qsub's
    "Could not read options file" instead of reading itself until the stack runs out."""
    files = {**SCRIPT, "/work/a": "-@ b\n", "/work/b": "-N x -@ ./a\n"}
    with pytest.raises(OptionError, match=r'Could not read options file "\./a"'):
        build_qsub(["-@", "a", "job.sh"], inputs(files))


def test_help_in_an_options_file_prints_the_usage(tmp_path: Path) -> None:
    """Grid Engine reads a -@ file into the command line, so a -help there is qsub's
    -help (its testsuite's check_option_@); a -@ file's job-argument words are not."""
    (tmp_path / "cmd").write_text("-N x\n-help\n")
    (tmp_path / "loop").write_text(f"-@ {tmp_path / 'loop'}\n")
    assert asks_for_help_with_files(["-@", str(tmp_path / "cmd"), "job.sh"])
    assert not asks_for_help_with_files(["-@", str(tmp_path / "loop"), "job.sh"])
    assert not asks_for_help_with_files(["job.sh", "-@", str(tmp_path / "cmd")])


def test_mail_list_is_read_as_grid_engine_reads_it() -> None:
    """-M: "@grp" is user grp with no host (strtok skips the leading @), a third part is
    dropped and an address given twice is kept once (mailrec_parse())."""
    argv = ["-M", "a@h,@deadlineusers,b@h@x,a@h", "job.sh"]
    assert build_qsub(argv, inputs(SCRIPT)).spec["M"] == ["a@h", "deadlineusers", "b@h"]
