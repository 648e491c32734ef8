"""qconf against a running qmaster where Grid Engine 6.2u5's behaviour is the contract."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(90)

STOCK = Path(__file__).parents[1] / "data" / "ge62u5_complexes"


def test_stock_complex_table_round_trips(served: RunningCell, tmp_path: Path) -> None:
    """-Mc of Grid Engine's stock table works, -sc prints it back; a refused -Mc adds nothing."""
    assert served.run("qconf", "-sc").stdout == STOCK.read_text()
    loaded = served.run("qconf", "-Mc", str(STOCK))
    assert loaded.returncode == 0, loaded.stderr
    assert served.run("qconf", "-sc").stdout == STOCK.read_text()
    lines = [ln for ln in STOCK.read_text().splitlines() if not ln.startswith("arch ")]
    (tmp_path / "c").write_text("\n".join([*lines, "gpu gpu INT <= YES YES 0 0"]) + "\n")
    refused = served.run("qconf", "-Mc", str(tmp_path / "c"))
    assert refused.returncode == 1
    assert "added" not in refused.stdout + refused.stderr
    assert 'The built-in complex "arch" cannot be deleted' in refused.stderr
    assert served.run("qconf", "-sc").stdout == STOCK.read_text()
