"""Shared fixtures: the bundled samples, built once into a store, and helpers to run the CLI."""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kg import SAMPLES_DIR
from kg.cli.settings import configure
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore

LISTING = SAMPLES_DIR / "001_0af6457a65591eab.txt"
ABSTRACTS = SAMPLES_DIR / "000_d46489bfe8e71c68.txt"
KG_BIN = Path(sys.executable).with_name("kg")
configure()  # the tests' own process takes the cache folder and alias table its environment names, as kg does

#: Fixtures that put every test using them in a tier (docs/testing.md): a headless Chromium, or a
#: server on 127.0.0.1 (kg serve, an Oxigraph server, fake SPARQL servers, Virtuoso).
TIER_OF_FIXTURE = {
    "browser": "browser",
    "loopback_browser": "browser",
    "served": "server",
    "server": "server",
    "servers": "server",
    "served_samples_port": "server",
    "virtuoso": "server",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture in TIER_OF_FIXTURE.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(TIER_OF_FIXTURE[fixture])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (make test) with a file's tests as one group unless they name another: a
    file runs in one worker, so its module fixtures are made once (as ``--dist loadfile``), and the
    files of one ``xdist_group`` run in one worker, so a session fixture (a server) is made once."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class FileOrGroupScheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            group = super()._split_scope(nodeid)  # the group's name, or the test's own id
            if group != nodeid:
                return group
            path = nodeid.split("::", 1)[0]
            return file_group(config.rootpath / path) or path

        def _assign_work_unit(self, node) -> None:
            """The next unit is a named group (files sharing a server: the longest units) while one is
            left, then the file with the most tests: the long units start first, so no worker is left
            running one alone at the end."""
            first = min(self.workqueue.items(), key=lambda unit: (unit[0].endswith(".py"), -len(unit[1])))
            self.workqueue.move_to_end(first[0], last=False)
            super()._assign_work_unit(node)

    return FileOrGroupScheduling(config, log)


@functools.cache
def file_group(path: Path) -> str | None:
    """The ``xdist_group`` a test file's ``pytestmark`` names, read from its text: xdist 3.8 appends
    the group to a test's id as ``@name``, which pytest 9 ignores, so the scheduler would not see it."""
    if path.suffix != ".py" or not path.is_file():
        return None
    match = re.search(r'xdist_group\("([^"]+)"\)', path.read_text(encoding="utf-8"))
    return match.group(1) if match else None


@pytest.fixture(scope="session")
def sample_store() -> KGStore:
    """The bundled samples in an in-memory store (read-only for tests)."""
    store = KGStore("memory")
    ingest([SAMPLES_DIR], store, Minter())
    return store


@pytest.fixture(scope="session")
def built_samples(tmp_path_factory) -> Path:
    """A folder where `kg build --store store` ran on the samples: store/, exports/ and what the build
    printed, build.out (read-only for tests: one build per test process, shared by the modules that
    read it)."""
    folder = tmp_path_factory.mktemp("built-samples")
    result = run_kg("build", "--store", str(folder / "store"), cwd=folder)
    (folder / "build.out").write_bytes(result.stdout)
    return folder


@pytest.fixture
def built_here(tmp_path, built_samples) -> Path:
    """``tmp_path`` as `kg build` of the samples leaves it (its .kg-store a copy of built_samples' store):
    for a test of what follows a build, without a build of its own."""
    shutil.copytree(built_samples / "store", tmp_path / ".kg-store")
    return tmp_path


def run_kg(*args: str, cwd: Path, check: bool = True, input: bytes | None = None) -> subprocess.CompletedProcess:
    """Run the installed ``kg`` command as a user would, in its own process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    result = subprocess.run([str(KG_BIN), *args], cwd=cwd, capture_output=True, env=env, input=input, timeout=600)
    return checked(result, check)


def kg_here(*args: str, cwd: Path, check: bool = True, input: bytes | None = None) -> subprocess.CompletedProcess:
    """What ``run_kg`` gives (exit code, stdout and stderr as bytes), through the same entry point
    (``kg.cli.main``: its exit codes and one-line errors) with the same arguments, folder and environment
    (no ``KG_`` variable), but in this test process: no interpreter start-up, imports and organisation
    tables per command. For what a command prints and writes; ``run_kg`` for what needs a process of its
    own (a kill, a lock another process holds, a server)."""
    from kg.cli import main

    args = tuple(map(os.fspath, args))  # as subprocess takes them: str or path
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr, sys.argv, Path.cwd(), dict(os.environ)
    sys.stdin = io.TextIOWrapper(io.BytesIO(input or b""), encoding="utf-8")
    writers = [io.TextIOWrapper(stream, encoding="utf-8", write_through=True) for stream in (out, err)]
    sys.stdout, sys.stderr = writers  # kept in ``writers`` too: a wrapper dropped would close its stream
    sys.argv = [str(KG_BIN), *args]
    for name in [name for name in os.environ if name.startswith("KG_")]:
        del os.environ[name]
    os.chdir(cwd)
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved[:4]
        os.chdir(saved[4])
        os.environ.clear()
        os.environ.update(saved[5])
        configure()  # the settings of the test process's own environment again, as before the command
    return checked(subprocess.CompletedProcess([str(KG_BIN), *args], code, out.getvalue(), err.getvalue()), check)


def checked(result: subprocess.CompletedProcess, check: bool) -> subprocess.CompletedProcess:
    """The result of a kg command, or an AssertionError with its stderr when ``check`` and it failed."""
    if check and result.returncode != 0:
        raise AssertionError(
            f"kg {' '.join(result.args[1:])} exited {result.returncode}: {result.stderr.decode(errors='replace')}"
        )
    return result


def start_serve(folder: Path, *args: str) -> tuple[subprocess.Popen, int]:
    """A `kg serve --port 0` in ``folder`` and the port it printed; the caller stops it by its process id."""
    process = subprocess.Popen(
        [str(KG_BIN), "serve", "--port", "0", *args], cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    line = process.stderr.readline().decode()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        process.kill()
        pytest.fail(f"kg serve did not start: {line}{process.stderr.read().decode()}")
    return process, int(match.group(1))


@pytest.fixture(scope="module")
def served_samples_port(tmp_path_factory):
    """The port of a `kg serve` over the samples and their site, one per test module; stopped by its process id."""
    folder = tmp_path_factory.mktemp("served-samples")
    kg_here("build", "--site", "--store", str(folder / "store"), cwd=folder)
    process, port = start_serve(folder, "--store", str(folder / "store"), "--site", str(folder / "exports" / "site"))
    yield port
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def loopback_browser():
    """A headless Chromium that reaches 127.0.0.1 (the server and a listener) and nothing else."""
    from chromium import CHROMIUM, Chromium

    if CHROMIUM is None:
        pytest.skip("chromium is not installed (make system-deps)")
    chromium = Chromium(reach_loopback=True)
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium with networking off (tests/chromium.py), one per test module."""
    from chromium import CHROMIUM, Chromium

    if CHROMIUM is None:
        pytest.skip("chromium is not installed (make system-deps)")
    chromium = Chromium()
    yield chromium
    chromium.close()


def mark_first_row(store, name: str, mark: str) -> None:
    """The first value of the first row of the precomputed list ``name`` (kg/query/rankings.py) made ``mark``:
    a page that shows it was read from the list."""
    from kg.query.library import library
    from kg.query.rankings import digest
    from kg.vocab import sparql_prologue

    query = next(query for query in library().values() if query.precomputed == name)
    header = (
        f'{sparql_prologue()}SELECT ?v WHERE {{ ?r kg:rankingName "{name}" ; '
        f'kg:queryDigest "{digest(query.sparql)}" ; kg:rankedVariables ?v }}'
    )
    variable = next(row[0] for row in store.select_terms(header)).value.split()[0]
    store.update(
        f"""{sparql_prologue()}
        DELETE {{ GRAPH ?g {{ ?row ?column ?old }} }} INSERT {{ GRAPH ?g {{ ?row ?column "{mark}" }} }}
        WHERE {{ GRAPH ?g {{ ?ranking kg:rankingName "{name}" ; kg:rankedOrder ?order .
                 BIND (IRI(CONCAT(STR(?ranking), "/", STRBEFORE(CONCAT(?order, " "), " "))) AS ?row)
                 ?row ?column ?old
                 FILTER (STRENDS(STR(?column), "#{variable}")) }} }}"""
    )


def counted_calls(monkeypatch, module, name: str) -> list[int]:
    """``[how many times module.name has been called]`` from now on, the function still doing its work."""
    calls, function = [0], getattr(module, name)

    def counted(*args, **kwargs):
        calls[0] += 1
        return function(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls
