"""The region's server as docs/operations.md sets it up: Debian's nginx with TLS, from
``deploy/nginx/binokel.conf``, in front of gunicorn on loopback (issue 38.1).

Through the proxy every request reaches the app from 127.0.0.1.  Before the fix the app
took that for the laptop itself: ``/`` led any visitor to ``/einrichten/``, and four
simultaneous POSTs made four superusers.  Here, on an empty database:

- ``/`` and the login are served, never a redirect to the first-run page;
- the first-run page answers 403 to GET and to four simultaneous POSTs with a valid CSRF
  token, and no account exists afterwards; also with the venue's flag
  (``BINOKEL_FIRST_RUN_PAGE=1``) set by mistake on the server;
- the client's own address reaches the app (nginx sends it, the app trusts the header from
  its configured proxy only): a failed login is recorded by django-axes under the test
  client's source address 127.0.0.2, not under the proxy's 127.0.0.1.
"""

from __future__ import annotations

import http.client
import os
import re
import sqlite3
import ssl
import subprocess
import sys
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench.load_test import _free_port
from bench.region_server import HOST, Nginx, nginx_binary

ROOT = Path(__file__).resolve().parents[2]
CLIENT_ADDRESS = "127.0.0.2"  # the test's own source address, as a visitor's would be

pytestmark = pytest.mark.skipif(
    nginx_binary() is None and not os.environ.get("CI"),
    reason="needs Debian's nginx (apt-get install nginx-light); CI installs it",
)


class Deployment:
    """gunicorn (DEBUG off, HTTPS on, BINOKEL_TRUSTED_PROXIES=127.0.0.1) on an empty,
    migrated SQLite database, and nginx in front of it with a self-signed certificate,
    from the repository's files (:class:`bench.region_server.Nginx`)."""

    def __init__(self, tmp: Path, first_run_flag: bool, forwards_address: bool = True):
        self.tmp = tmp
        self.database = tmp / "server.sqlite3"
        self.app_port = _free_port()
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "test-only-secret-key-behind-nginx",
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DATABASE_URL": f"sqlite:///{self.database}",
            "DJANGO_STATIC_ROOT": str(tmp / "static"),
            "BINOKEL_TRUSTED_PROXIES": "127.0.0.1",
            "BINOKEL_FIRST_RUN_PAGE": "1" if first_run_flag else "0",
            "PYTHONPATH": str(ROOT),
        }
        for key in ("BINOKEL_LOG_FILE", "REDIS_URL", "DJANGO_HTTPS"):
            self.env.pop(key, None)
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "-v0"], env=self.env, check=True)
        subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=self.env, check=True)
        self.app_log = (tmp / "gunicorn.log").open("w")
        self.app = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi",
             "--bind", f"127.0.0.1:{self.app_port}", "--workers", "1",
             "--worker-class", "gthread", "--threads", "4"],
            cwd=ROOT, env=self.env, stdout=self.app_log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.nginx = Nginx(tmp, [self.app_port], tmp / "static", forwards_address=forwards_address)
        self.port = self.nginx.port
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.request("GET", "/accounts/login/")[0] not in (502, 503, 504):
                    break  # the app answered through nginx (502: gunicorn not up yet)
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(self.logs())
            time.sleep(0.2)

    def logs(self) -> str:
        self.app_log.flush()
        return (self.tmp / "gunicorn.log").read_text() + self.nginx.logs()

    def request(self, method: str, path: str, body: dict | None = None, headers=None):
        """One HTTPS request to nginx from 127.0.0.2 with ``Host: turnier.example.org``:
        (status, headers, text)."""
        context = ssl._create_unverified_context()  # noqa: S323 - the test's own certificate
        conn = http.client.HTTPSConnection(
            "127.0.0.1", self.port, context=context, timeout=20,
            source_address=(CLIENT_ADDRESS, 0),
        )  # fmt: skip
        data = urllib.parse.urlencode(body).encode() if body is not None else None
        all_headers = {"Host": HOST, **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=data, headers=all_headers)
            response = conn.getresponse()
            return response.status, response.headers, response.read().decode(errors="replace")
        finally:
            conn.close()

    def stop(self) -> None:
        self.nginx.stop()
        self.app.terminate()
        try:
            self.app.wait(10)
        except subprocess.TimeoutExpired:
            self.app.kill()
        self.app_log.close()

    def rows(self, sql: str) -> list[tuple]:
        """Rows of ``sql`` from the server's database, read through SQLite itself."""
        with sqlite3.connect(self.database) as db:
            return db.execute(sql).fetchall()


@pytest.fixture(
    scope="module",
    params=[(False, True), (False, False), (True, True)],
    ids=["server", "proxy without X-Forwarded-For", "venue flag set by mistake"],
)
def deployment(request, tmp_path_factory):
    flag, forwards = request.param
    server = Deployment(tmp_path_factory.mktemp("nginx"), flag, forwards)
    yield server
    server.stop()


def _csrf(deployment: Deployment) -> tuple[str, str]:
    """A CSRF cookie and the form token of the login page."""
    status, headers, page = deployment.request("GET", "/accounts/login/")
    assert status == 200
    cookie = next(
        c.split(";")[0] for c in headers.get_all("Set-Cookie") if c.startswith("csrftoken=")
    )
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return cookie, token


def test_nobody_becomes_director_of_a_new_server_through_the_proxy(deployment):
    status, headers, page = deployment.request("GET", "/")
    assert status == 200, (status, headers.get("Location"))
    assert "einrichten" not in (headers.get("Location") or "")
    assert deployment.request("GET", "/accounts/login/")[0] == 200
    assert deployment.request("GET", "/einrichten/")[0] == 403

    cookie, token = _csrf(deployment)
    form = {
        "csrfmiddlewaretoken": token,
        "username": "fremder",
        "password1": "Ochsen-Wirt-1987",
        "password2": "Ochsen-Wirt-1987",
    }
    headers = {"Cookie": cookie, "Origin": f"https://{HOST}", "Referer": f"https://{HOST}/"}

    def post(n: int):
        return deployment.request("POST", "/einrichten/", {**form, "username": f"x{n}"}, headers)

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(post, range(4)))
    # refused by the first-run rule, not by CSRF: the page says where the account is made
    assert [a[0] for a in answers] == [403] * 4
    assert all("am Laptop selbst" in a[2] for a in answers), answers[0][2][:500]
    assert deployment.request("GET", "/admin/")[0] == 302
    assert deployment.rows("SELECT count(*) FROM auth_user") == [(0,)]


def test_the_clients_own_address_reaches_the_app_through_the_proxy(deployment):
    """With the documented file the failed login is recorded under the client's address;
    a proxy that sends none leaves the client unknown (0.0.0.0), never the proxy's."""
    cookie, token = _csrf(deployment)
    status, _headers, _page = deployment.request(
        "POST",
        "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": "leitung", "password": "falsch-falsch"},
        {"Cookie": cookie, "Origin": f"https://{HOST}", "Referer": f"https://{HOST}/"},
    )
    assert status == 200  # the login form again, with its error
    forwarded = "proxy_set_header X-Forwarded-For" in (deployment.tmp / "site.conf").read_text()
    expected = CLIENT_ADDRESS if forwarded else "0.0.0.0"  # noqa: S104 - an address, not a bind
    assert deployment.rows("SELECT ip_address FROM axes_accessattempt") == [(expected,)]
