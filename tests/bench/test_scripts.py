"""Every script in bench/ still imports: a benchmark is run by hand, rarely, so a module it imports
that moved (a test helper renamed, a function split) would otherwise be found only when someone needs
the figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[2] / "bench"
# Each script imports as its own module in one fresh interpreter: bench/ first on the path, as when
# it runs (`python bench/NAME.py`); a script's main work is behind `if __name__ == "__main__"`.
IMPORT_ALL = """
import importlib.util, sys
sys.path.insert(0, sys.argv[1])
for path in sys.argv[2:]:
    spec = importlib.util.spec_from_file_location("bench_" + path.rsplit("/", 1)[-1][:-3], path)
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # as dataclasses look it up
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.exit(f"{path}: {type(exc).__name__}: {exc}")
"""


def test_every_bench_script_imports():
    scripts = sorted(str(path) for path in BENCH.glob("*.py"))
    assert len(scripts) > 10  # the folder is really read
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, str(BENCH), *scripts], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]


def test_a_broken_import_is_reported(tmp_path):
    """The check itself: a script importing a module that is gone fails, naming the script."""
    broken = tmp_path / "broken.py"
    broken.write_text("from test_graph_pages import synthetic_network\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, str(tmp_path), str(broken)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1 and "broken.py: ModuleNotFoundError" in result.stderr
