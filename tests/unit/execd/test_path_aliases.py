"""sge_aliases(5): the entries a job keeps and its working directory on the execution host."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.execd.pathalias import PathAlias, aliased, aliases_for, parse_aliases

FILE = """\
# the testsuite's path_alias file
/tmp_mnt/   *   *   /
/home//out1 *   *   /home/out2

/data       sub1 *  /mnt/data
/scratch    *   exec1 /local/scratch
"""


def test_a_file_is_read_as_path_alias_read_from_file() -> None:
    """Comments and blank lines are skipped, slashes compressed, four fields a line."""
    assert parse_aliases(FILE)[:2] == [
        PathAlias("/tmp_mnt/", "*", "*", "/"),
        PathAlias("/home/out1", "*", "*", "/home/out2"),
    ]
    with pytest.raises(ValueError, match='invalid syntax of path alias file "f"'):
        parse_aliases("/a * *\n", "f")


@pytest.mark.parametrize(
    ("path", "submit", "exec_host", "expected"),
    [
        ("/home/out1", "sub2", "exec2", "/home/out2"),
        ("/home/out1/deeper", "sub2", "exec2", "/home/out2/deeper"),
        ("/tmp_mnt/home/out1/x", "sub2", "exec2", "/home/out2/x"),  # one after the other
        ("/data/x", "sub1", "exec2", "/mnt/data/x"),
        ("/data/x", "sub2", "exec2", "/data/x"),  # another submit host's entry is dropped
        ("/scratch/j", "sub2", "EXEC1", "/local/scratch/j"),
        ("/scratch/j", "sub2", "exec2", "/scratch/j"),
        ("/homes/out1", "sub2", "exec2", "/homes/out1"),
    ],
)
def test_the_working_directory_as_the_execution_host_sees_it(
    tmp_path: Path, path: str, submit: str, exec_host: str, expected: str
) -> None:
    """path_alias_list_get_path(): the cell's file, then the user's, each entry in order."""
    (tmp_path / "sge_aliases").write_text(FILE)
    files = [tmp_path / "sge_aliases", tmp_path / "missing"]
    assert aliased(aliases_for(files, submit), path, exec_host) == expected
