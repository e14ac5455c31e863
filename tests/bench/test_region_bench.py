"""The region server's benchmark (:mod:`bench.region_bench`) measures, and only its own
servers: a short run prints figures for the three kinds and passes its checks; a run whose
load went to another HTTPS server (wrk pointed elsewhere) fails, because nginx's access log
did not grow by what wrk counted."""

from __future__ import annotations

import argparse
import http.server
import json
import os
import ssl
import threading

import pytest

from bench import region_bench
from bench.region_server import (
    RegionServer,
    nginx_binary,
    postgres_reachable,
    self_signed_certificate,
)

pytestmark = pytest.mark.skipif(
    (nginx_binary() is None or region_bench.wrk_binary() is None) and not os.environ.get("CI"),
    reason="needs Debian's nginx and wrk (apt-get install nginx-light wrk); CI installs them",
)

WRK_REPORT = """Running 1s test @ https://127.0.0.1:4443/turnier/1/rangliste/
  2 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.10ms  402.17us   6.21ms   81.25%
  Latency Distribution
     50%  812.00us
     75%    1.39ms
     90%    1.52ms
     99%    2.10s
  7123 requests in 1.00s, 356.12MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:   7104.55
Transfer/sec:    355.17MB
"""


def test_wrk_report_is_read_with_its_units():
    figures = region_bench.parse_wrk(WRK_REPORT)
    assert figures["requests"] == 7123
    assert figures["rps"] == pytest.approx(7104.55)
    assert figures["p50_ms"] == pytest.approx(0.812)
    assert figures["p99_ms"] == pytest.approx(2100)
    assert figures["socket_errors"] == 3
    assert figures["bad_status"] == 4


@pytest.fixture(scope="module")
def region(tmp_path_factory):
    if not postgres_reachable():
        if os.environ.get("CI") or os.environ.get("BINOKEL_REQUIRE_SERVICES"):
            pytest.fail("the region server's benchmark needs PostgreSQL on 127.0.0.1")
        pytest.skip("no PostgreSQL on 127.0.0.1")
    server = RegionServer(
        tmp_path_factory.mktemp("region-bench"), region_bench.REDIS_URL, workers=1, threads=4
    )
    yield server
    server.stop()


def _args(**overrides) -> argparse.Namespace:
    values = {"tables": 4, "seconds": 1, "rounds": 1, "connections": 8, "json": None}
    return argparse.Namespace(**{**values, **overrides})


def test_a_short_run_measures_all_three_kinds(region, capsys, tmp_path):
    report = tmp_path / "region.json"
    assert region_bench._measure(region, _args(json=report)) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    for kind in ("cached", "static", "app"):
        assert f"round 1 {kind:>6}:" in out
    summary = json.loads(report.read_text())
    assert set(summary["median_rps"]) == {"cached", "static", "app"}
    assert all(value > 0 for value in summary["median_rps"].values())
    assert summary["cached_over_static"] > 0


@pytest.fixture
def other_https_server(tmp_path):
    """Another program answering HTTPS on loopback: Python's file server with TLS."""
    cert, key = self_signed_certificate(tmp_path)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_load_that_went_elsewhere_fails_the_run(region, capsys, monkeypatch, other_https_server):
    real = region_bench.run_wrk

    def elsewhere(port, path, seconds, connections, cookie):
        return real(other_https_server, "/", seconds, 2, cookie)

    monkeypatch.setattr(region_bench, "run_wrk", elsewhere)
    assert region_bench._measure(region, _args()) == 1
    assert "wrk did not measure this run's nginx" in capsys.readouterr().err
