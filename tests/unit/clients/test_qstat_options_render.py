"""Golden layouts of qstat's option renderers, from the printf formats of Grid Engine 6.2u5."""

from __future__ import annotations

from clients.qstat_render.cluster import render_cluster
from clients.qstat_render.columns import Layout, header, job_line, job_lines
from clients.qstat_render.listing import queue_block
from clients.qstat_render.requirements import render_requirements
from clients.qstat_render.xml import job_element

ROW = {"job_id": 7, "prior": 0.5, "name": "job", "owner": "alice", "state": "qw",
       "submit_time": 0.0, "queue": None, "slots": 1, "tasks": None, "nurg": 0.5,
       "npprior": 0.5, "ntckts": 0.5, "ppri": -10, "urg": 1000.0, "rrcontr": 1000.0,
       "wtcontr": 0.0, "dlcontr": 0.0, "deadline": None}  # fmt: skip


def test_pri_header_and_row_follow_job_stdout_job() -> None:
    """-pri puts nurg, npprior, ntckts and ppri between prior and name."""
    lay = Layout(pri=True)
    head = header(lay).splitlines()
    assert head[0].startswith("job-ID  prior   nurg    npprior ntckts   ppri name       user")
    assert len(head[1]) == 93 + 20 + 35
    assert job_line(ROW, lay).startswith("      7 0.50000 0.50000 0.50000 0.50000   -10 job  ")


def test_urg_row_prints_contributions_as_8_0f() -> None:
    """-urg prints urg rrcontr wtcontr dlcontr with %8.0f and a blank deadline when none."""
    line = job_line(ROW, Layout(urg=True))
    assert line.startswith("      7 0.50000 0.50000     1000     1000        0        0 job  ")


def test_ext_hides_the_time_and_shows_tickets() -> None:
    """-ext alone drops submit/start at and shows NA project and the ticket columns."""
    lay = Layout(ext=True)
    assert "submit/start at" not in header(lay)
    row = {**ROW, "project": None, "department": "defaultdepartment", "tickets": 0,
           "override_tickets": 0, "otickets": 0, "ftickets": 0, "stickets": 0, "share": 0.0}  # fmt: skip
    line = job_line(row, lay)
    assert "alice        NA               defaultdep qw    " in line
    assert "    0     0     0     0     0 0.00  " in line


def test_master_column_replaces_slots() -> None:
    """-g t prints MASTER in a %-7.6s column; a SLAVE line leaves the job fields blank."""
    lay = Layout(master=True)
    assert header(lay).splitlines()[0].endswith("master ja-task-ID ")
    slave = {**ROW, "queue": "all.q@h", "master": "SLAVE", "print_job_id": False}
    assert job_line(slave, lay) == " " * 66 + f"{'all.q@h':<30} SLAVE  " + " " * 7 + "\n"


def test_lines_of_the_same_job_leave_its_fields_blank() -> None:
    """-g t: only the first line of a job shows its fields; a repeated MASTER becomes SLAVE."""
    lay = Layout(master=True)
    rows = [{**ROW, "queue": q, "master": m} for q, m in (("a@h", "MASTER"), ("a@h", "SLAVE"))]
    lines = job_lines(rows, lay).splitlines()
    assert lines[0].startswith("      7 0.50000 job ")
    assert lines[1].startswith(" " * 66 + "a@h ")
    again = job_lines([{**rows[0], "master": "SLAVE"}, rows[0]], lay).splitlines()
    assert again[1].rstrip().endswith("a@h                            SLAVE")


def test_requirements_block() -> None:
    """-r lines: 7-space indent, labels padded to 17, contributions as %f."""
    req = {"full_name": "longname", "master_queue": "all.q@h",
           "requested_pe": {"name": "mpi", "min": 2, "max": 4},
           "hard_resources": [{"name": "h_vmem", "value": "1G", "contribution": 0.0},
                              {"name": "arch", "value": "lx", "contribution": 1.0}],
           "soft_resources": [{"name": "a", "value": "b"}], "hard_queues": ["q1", "q2"]}  # fmt: skip
    assert render_requirements(req) == (
        "       Full jobname:     longname\n"
        "       Master Queue:     all.q@h\n"
        "       Requested PE:     mpi 2-4\n"
        "       Hard Resources:   h_vmem=1G (0.000000)\n"
        "                         arch=lx (1.000000)\n"
        "       Soft Resources:   a=b\n"
        "       Hard requested queues: q1, q2\n"
    )


def test_queue_resources_and_explain_follow_the_queue_line() -> None:
    """-F values and -explain reasons sit under the queue line, tab-indented."""
    queue = {"name": "all.q@h", "qtype": "BIP", "resv": 0, "used": 0, "total": 4,
             "load_avg": 0.0, "arch": "lx", "states": "a",
             "explain": ["alarm hl:np_load_avg=2.000000 load-threshold=1.75"],
             "resources": [{"dom": "hl", "name": "arch", "value": "lx"}]}  # fmt: skip
    text = queue_block(queue, ext=False).splitlines()
    assert text[2:] == ["\talarm hl:np_load_avg=2.000000 load-threshold=1.75", "\thl:arch=lx"]


def test_cluster_summary_layout() -> None:
    """-g c: %-30.30s name, %7.2f load or -NA-, %6d counts."""
    cq = {"name": "all.q", "load": None, "used": 1, "resv": 0, "available": 3, "total": 4,
          "aoACDS": 0, "cdsuE": 0}  # fmt: skip
    lines = render_cluster([cq]).splitlines()
    assert lines[0] == (
        "CLUSTER QUEUE                   CQLOAD   USED    RES  AVAIL  TOTAL aoACDS  cdsuE  "
    )
    assert lines[1] == "-" * 80
    assert lines[2] == f"{'all.q':<30}    -NA-      1      0      3      4      0      0 "


def test_full_listing_blanks_a_jobs_repeated_line_within_a_queue() -> None:
    """-f: each queue block's first line of a job shows it; further lines there are blank."""
    lay = Layout(full=True)
    rows = [{**ROW, "state": "r", "queue": q} for q in ("a@h1", "a@h1", "a@h2")]
    lines = job_lines(rows, lay).splitlines()
    assert lines[0].startswith("      7 ")
    assert lines[1].startswith(" " * 66 + "    1")
    assert lines[2].startswith("      7 ")


def test_xml_job_fields_follow_qstat_xml_job() -> None:
    """-xml puts the -urg/-pri fields after JAT_prio and -r's after slots; -f drops queue_name."""
    row = {**ROW, "requirements": {"full_name": "longname", "hard_resources": []}}
    tags = [line.strip().split(">")[0][1:] for line in job_element(row, 0).splitlines()[1:-1]]
    assert tags[:10] == ["JB_job_number", "JAT_prio", "JB_nurg", "JB_urg", "JB_rrcontr",
                         "JB_wtcontr", "JB_dlcontr", "JB_nppri", "JB_priority", "JB_name"]  # fmt: skip
    assert tags[-3:] == ["queue_name", "slots", "full_job_name"]
    assert "<JB_urg>1000</JB_urg>" in job_element(row, 0)
    assert "queue_name" not in job_element(row, 0, full=True)
