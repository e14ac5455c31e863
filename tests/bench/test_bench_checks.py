"""The load benches measure only their own server (:mod:`bench.server`): a port another
program listens on is refused before the start, an answer without the run's marker is
counted as foreign, and the errors of the app's log file fail the run."""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

import pytest

from bench.server import AppServer, ServerProblem, free_port, log_records, port_taken


@pytest.fixture
def foreign_server():
    """Another program on a loopback port: Python's plain HTTP server."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_a_port_someone_listens_on_is_refused_before_the_start(tmp_path, foreign_server):
    assert port_taken(foreign_server)
    server = AppServer(tmp_path, {}, port=foreign_server)
    with pytest.raises(ServerProblem, match="taken by another program"):
        server.start()
    assert server.process is None  # no gunicorn was started


def test_an_answer_without_the_runs_marker_is_foreign(tmp_path, foreign_server):
    server = AppServer(tmp_path, {}, port=foreign_server)
    status, headers = server.get("/")
    assert status == 200  # it answers, and well: only the marker tells it is not ours
    with pytest.raises(ServerProblem, match="another program"):
        server.require_ours(headers, "/")
    assert not server.note({"X-Binokel-Instance": "a-different-run"})
    assert server.note({"X-Binokel-Instance": server.instance})
    assert (server.checked, server.foreign) == (3, 2)
    assert "2 of 3 checked answers came from another program" in server.problems()[0]


def test_a_free_port_is_free():
    assert not port_taken(free_port())


def test_errors_are_read_from_the_log_file_and_its_rotations(tmp_path):
    log = tmp_path / "binokel.log"
    Path(f"{log}.1").write_text(
        "2026-11-21 20:00:00,000 CRITICAL gunicorn.error [7] WORKER TIMEOUT (pid:9)\n"
    )
    log.write_text(
        "2026-11-21 20:01:00,000 WARNING binokel.cache [9] Redis unreachable\n"
        "2026-11-21 20:02:00,000 ERROR django.request [9] Internal Server Error: /t/…/\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in <module>\n'
        "RuntimeError: kaputt\n"
        "2026-11-21 20:03:00,000 INFO gunicorn.error [7] Booting worker with pid: 10\n"
    )
    errors = log_records(log)
    assert [e.splitlines()[0][24:] for e in errors] == [
        "CRITICAL gunicorn.error [7] WORKER TIMEOUT (pid:9)",
        "ERROR django.request [9] Internal Server Error: /t/…/",
    ]
    assert errors[1].endswith("RuntimeError: kaputt")
    assert len(log_records(log, ("WARNING",))) == 1
    server = AppServer(tmp_path, {})
    assert len(server.problems()) == 2
    assert log_records(tmp_path / "missing.log") == []
