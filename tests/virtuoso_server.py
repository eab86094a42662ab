"""A private Virtuoso (Debian's virtuoso-opensource) on 127.0.0.1, for tests and bench/virtuoso.py.

Its own virtuoso.ini, database and log in one folder, ports chosen free, SPARQL update granted
to the anonymous endpoint's user and to a test account (for the Digest-protected endpoints);
stopped, and its folder left to the caller, by :meth:`stop`.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

VIRTUOSO = shutil.which("virtuoso-t")
ISQL = shutil.which("isql-vt")
VAD_DIR = "/usr/share/virtuoso-opensource-7/vad"
USER, PASSWORD = "kgtest", "kg-test-secret"
ADMIN = ("dba", "dba")  # the new database's own administrator, reachable on loopback only

INI = """[Database]
DatabaseFile = {folder}/virtuoso.db
ErrorLogFile = {folder}/virtuoso.log
LockFile = {folder}/virtuoso.lck
TransactionFile = {folder}/virtuoso.trx
xa_persistent_file = {folder}/virtuoso.pxa
FileExtend = 200
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {folder}/virtuoso-temp.db
TransactionFile = {folder}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DisableUnixSocket = 1
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = ., {folder}, {VAD_DIR}
VADInstallDir = {VAD_DIR}/
NumberOfBuffers = {buffers}
MaxDirtyBuffers = {dirty}
MaxQueryMem = 1G
ThreadsPerQuery = 2
[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {folder}
ServerThreads = 10
MaxClientConnections = 10
Charset = UTF-8
EnabledGzipContent = 0
[SPARQL]
; no cap on rows or time: kg reads whole answers and has its own limits (KG_STORE_TIMEOUT, KG_STORE_MAX_BYTES)
ResultSetMaxRows = 0
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime = 0
"""

GRANTS = f"""GRANT SPARQL_UPDATE TO "SPARQL";
DB.DBA.USER_CREATE('{USER}', '{PASSWORD}');
GRANT SPARQL_UPDATE TO "{USER}";
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Virtuoso:
    def __init__(self, folder: Path, buffers: int = 20000):
        self.folder = folder
        self.sql_port, self.http_port = free_port(), free_port()
        base = f"http://127.0.0.1:{self.http_port}"
        self.sparql, self.sparql_auth = f"{base}/sparql", f"{base}/sparql-auth"
        self.graph_store, self.graph_store_auth = f"{base}/sparql-graph-crud", f"{base}/sparql-graph-crud-auth"
        (folder / "virtuoso.ini").write_text(
            INI.format(
                folder=folder,
                sql_port=self.sql_port,
                http_port=self.http_port,
                VAD_DIR=VAD_DIR,
                buffers=buffers,
                dirty=buffers * 3 // 4,
            )
        )
        self._start()
        self.isql(GRANTS)

    def _start(self) -> None:
        self.process = subprocess.Popen(
            [VIRTUOSO, "+configfile", str(self.folder / "virtuoso.ini"), "+foreground"],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._wait_online()

    def restart(self) -> None:
        """Stopped and started again on its database: a query it was still computing (one its client gave up
        on: Virtuoso goes on with it) is dropped."""
        self.stop()
        self._start()

    def _wait_online(self, limit: float = 120.0) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                urllib.request.urlopen(f"{self.sparql}?query=ASK%7B%7D", timeout=2).close()
                return
            except OSError:
                time.sleep(0.25)
        self.stop()
        log = (self.folder / "virtuoso.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"virtuoso did not start in {limit:g} s: {log}")

    def isql(self, statements: str) -> str:
        """Run SQL statements as the administrator; their output (an error raises)."""
        result = subprocess.run(
            [ISQL, f"127.0.0.1:{self.sql_port}", *ADMIN], input=statements.encode(), capture_output=True, timeout=3600
        )
        output = result.stdout.decode(errors="replace")
        if result.returncode != 0 or "*** Error" in output:
            raise RuntimeError(f"isql failed: {output[-1500:]} {result.stderr.decode(errors='replace')[-500:]}")
        return output

    def clear(self) -> None:
        """Every graph kg wrote (staging graphs too) cleared: an empty store for the next test."""
        from kg.stores.embedded import KGStore

        store = KGStore(self.sparql)
        graphs = [*store.graphs(), *store._staging_graphs()]
        if graphs:
            self.isql("".join(f"SPARQL CLEAR GRAPH <{graph}>;\n" for graph in graphs))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
