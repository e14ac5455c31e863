"""A region's server as docs/operations.md sets it up, on loopback: Debian's nginx with TLS
(a self-signed certificate) from ``deploy/nginx/binokel.conf`` in front of two gunicorn app
servers (``--workers 2 --threads 4 --worker-class gthread``, as documented), sharing one
PostgreSQL database and one Redis (issue 40.3).

The configuration is the repository's: ``deploy/nginx/loopback.conf`` is copied as the frame
(``nginx.conf``) and ``deploy/nginx/binokel.conf`` as ``site.conf`` with only its host
addresses replaced (:func:`site_config`: the listen line, the certificate, the cache folder,
the static folder and the app servers, and the static files are logged for the benchmark's
count; each replacement must find its line, so a changed file changes the tests too).

Used by ``tests/operations/test_region_server.py`` (behaviour through the proxy) and
``bench/region_bench.py`` (figures).  ``python -m bench.region_server --prepare`` is the
data step, run in a child process with the server's ``DATABASE_URL``: migrate,
collectstatic, one tournament with table entry by the players' phones, round 1 drawn and
started, and no account (the director's is made as documented, with ``manage.py
leitung_anlegen``); it prints JSON (tournament id, each table's link token, the hands it
will enter and its confirmation code).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

from bench.load_test import PG_ADMIN_URL, _environment
from bench.server import INSTANCE_HEADER, AppServer, ServerProblem, free_port, port_taken

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "nginx" / "binokel.conf"
FRAME = ROOT / "deploy" / "nginx" / "loopback.conf"
HOST = "turnier.example.org"
#: the database of one RegionServer; the process id keeps two at once apart (pytest-xdist)
PG_REGION_DB = f"binokel_region_{os.getpid()}"
DIRECTOR = "turnierleitung"
PASSWORD = "Region-Test-Leitung-2026"  # noqa: S105 - a throwaway account in a throwaway database


def nginx_binary() -> str | None:
    """Debian's nginx, or None when it is not installed."""
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None


def site_config(
    *,
    port: int,
    app_ports: list[int],
    cert: Path,
    key: Path,
    cache: Path,
    static: Path,
    forwards_address: bool = True,
) -> str:
    """``deploy/nginx/binokel.conf`` with this machine's addresses: nginx on
    ``127.0.0.1:port``, the app servers on ``app_ports``, the given certificate, cache
    folder and static folder.  Without ``forwards_address`` the X-Forwarded-For line is
    dropped (the example as docs/operations.md printed it before issue 38).  Raises
    ``AssertionError`` when a line to replace is not in the file exactly once."""
    text = SITE.read_text()
    if not forwards_address:
        text, count = re.subn(r"\n\s*proxy_set_header X-Forwarded-For \S+;", "", text)
        assert count == 1
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in app_ports)
    replacements = [
        (r"listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;"),
        (r"ssl_certificate \S+;", f"ssl_certificate {cert};"),
        (r"ssl_certificate_key \S+;", f"ssl_certificate_key {key};"),
        (r"proxy_cache_path \S+ ", f"proxy_cache_path {cache} "),
        (r"alias \S+;", f"alias {static}/;"),
        # the benchmark counts nginx's answers in its access log, static files too
        (r"\n\s*access_log off;", ""),
        (r"(upstream binokel \{\n)(    server \S+;\n)+", rf"\g<1>{servers}"),
    ]
    for pattern, new in replacements:
        text, count = re.subn(pattern, new, text)
        assert count == 1, pattern
    return text


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A throw-away certificate for ``HOST`` (openssl): (certificate, key)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={HOST}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


class Nginx:
    """Debian's nginx started from the repository's files in ``folder`` (see the module's
    docstring); ``port`` is where it listens with TLS.  ``stop()`` ends it."""

    def __init__(self, folder: Path, app_ports: list[int], static: Path, **site_options):
        self.folder = folder
        self.port = free_port()
        cert, key = self_signed_certificate(folder)
        (folder / "site.conf").write_text(
            site_config(
                port=self.port,
                app_ports=app_ports,
                cert=cert,
                key=key,
                cache=folder / "cache",
                static=static,
                **site_options,
            )
        )
        shutil.copyfile(FRAME, folder / "nginx.conf")
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi", "cache"):
            (folder / sub).mkdir(exist_ok=True)
        binary = nginx_binary()
        if binary is None:
            raise ServerProblem("nginx is not installed (apt-get install nginx-light)")
        if port_taken(self.port):
            raise ServerProblem(f"port {self.port} is taken before nginx started")
        self.process = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(folder / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def logs(self) -> str:
        path = self.folder / "nginx-error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def access_lines(self) -> int:
        """Requests nginx has logged so far (its access log, after a reopen)."""
        self.process.send_signal(signal.SIGUSR1)  # reopen: flushes the log
        time.sleep(0.3)
        path = self.folder / "access.log"
        if not path.exists():
            return 0
        with path.open("rb") as log:
            return sum(1 for _ in log)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


class Answer:
    """One answer through nginx: ``status``, ``headers`` (an ``http.client`` message),
    ``body`` (bytes) and ``text``."""

    def __init__(self, status: int, headers, body: bytes):
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    @property
    def cache_status(self) -> str | None:
        """nginx's ``$upstream_cache_status`` (HIT, MISS, EXPIRED, BYPASS …), None for a
        static file (no upstream)."""
        return self.headers.get("X-Cache-Status") or None


class Browser:
    """One visitor of the region's server over HTTPS (``Host: turnier.example.org``) with
    its own cookies.  Every answer that nginx did not make itself must carry the
    ``X-Binokel-Instance`` of one of this run's app servers (:class:`ServerProblem`
    otherwise)."""

    def __init__(self, server: RegionServer):
        self.server = server
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, data: dict | None = None, headers: dict | None = None
    ) -> Answer:
        context = ssl._create_unverified_context()  # noqa: S323 - the run's own certificate
        conn = http.client.HTTPSConnection(
            "127.0.0.1", self.server.nginx.port, context=context, timeout=30
        )
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        all_headers = {"Host": HOST, "Origin": f"https://{HOST}", "Referer": f"https://{HOST}/"}
        if body is not None:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        all_headers.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=all_headers)
            response = conn.getresponse()
            answer = Answer(response.status, response.headers, response.read())
        finally:
            conn.close()
        for header in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        self.server.require_ours(answer, path)
        return answer

    def get(self, path: str, headers: dict | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: dict, headers: dict | None = None) -> Answer:
        token = self.cookies.get("csrftoken", "")
        return self.request("POST", path, {"csrfmiddlewaretoken": token, **data}, headers)

    def log_in(self, username: str, password: str) -> None:
        """Sign in through the login form (its CSRF cookie first); raises
        :class:`ServerProblem` when the login is refused."""
        self.get("/accounts/login/")
        answer = self.post("/accounts/login/", {"username": username, "password": password})
        if answer.status != 302 or "sessionid" not in self.cookies:
            raise ServerProblem(f"the login as {username} was refused: {answer.status}")


class RegionServer:
    """nginx + two gunicorn app servers on PostgreSQL (a fresh database
    ``binokel_region_<pid>``, dropped at ``stop()``) and Redis (``redis_url``), in ``folder``.
    ``workers`` × ``threads`` per app server (the documented 2 × 4); ``tables`` tables of
    three in the prepared tournament.  ``data`` is what :func:`prepare` printed.  A context
    manager."""

    def __init__(
        self,
        folder: Path,
        redis_url: str,
        *,
        workers: int = 2,
        threads: int = 4,
        tables: int = 4,
    ) -> None:
        self.folder = folder
        _drop_left_behind()
        _postgres(
            f"DROP DATABASE IF EXISTS {PG_REGION_DB} WITH (FORCE)",
            f"CREATE DATABASE {PG_REGION_DB}",
        )
        database_url = f"postgres://postgres@127.0.0.1:5432/{PG_REGION_DB}"
        self.static = folder / "static"
        self.env = {
            **_environment(database_url, redis_url),
            "DJANGO_ALLOWED_HOSTS": f"{HOST},127.0.0.1",
            "DJANGO_STATIC_ROOT": str(self.static),
            "DJANGO_CACHE_PREFIX": f"region-{os.getpid()}",
            "BINOKEL_TRUSTED_PROXIES": "127.0.0.1",
            "BINOKEL_FIRST_RUN_PAGE": "0",
            "PYTHONPATH": str(ROOT),
        }
        self.apps: list[AppServer] = []
        self.nginx: Nginx | None = None
        try:
            prepared = subprocess.run(
                [sys.executable, "-m", "bench.region_server", "--prepare", str(tables)],
                cwd=ROOT,
                env={**os.environ, **self.env},
                capture_output=True,
                text=True,
                check=False,
            )
            if prepared.returncode != 0:
                raise ServerProblem("preparing the data failed:\n" + prepared.stderr[-3000:])
            self.data = json.loads(prepared.stdout)
            for name in ("a", "b"):
                app_folder = folder / f"app-{name}"
                app_folder.mkdir()
                app = AppServer(app_folder, self.env, workers=workers, threads=threads)
                self.apps.append(app.start())
            self.instances = {app.instance for app in self.apps}
            self.nginx = Nginx(folder, [app.port for app in self.apps], self.static)
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            if self.nginx.process.poll() is not None:
                raise ServerProblem("nginx ended:\n" + self.nginx.logs())
            try:
                if Browser(self).get("/accounts/login/").status == 200:
                    return
            except (OSError, ServerProblem):
                pass
            if time.monotonic() > deadline:
                raise ServerProblem("nginx did not answer:\n" + self.nginx.logs())
            time.sleep(0.2)

    def require_ours(self, answer: Answer, path: str) -> None:
        """An answer of the app must carry one of this run's instance markers; one of
        nginx's own (a static file, an nginx error page) carries none and no cache status."""
        marker = answer.headers.get(INSTANCE_HEADER)
        if marker is None and answer.cache_status is None:
            return  # nginx's own answer: a static file, or nginx's error page
        if marker not in self.instances:
            raise ServerProblem(f"{path} was answered by a server that is not this run's")

    def __enter__(self) -> RegionServer:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def problems(self) -> list[str]:
        """Errors in either app server's log, and nginx's errors ("[error]" or worse)."""
        found = [problem for app in self.apps for problem in app.problems()]
        if self.nginx is not None:
            found += [
                line
                for line in self.nginx.logs().splitlines()
                if re.search(r"\[(error|crit|alert|emerg)\]", line)
            ]
        return found

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for app in self.apps:
            app.stop()
        _postgres(f"DROP DATABASE IF EXISTS {PG_REGION_DB} WITH (FORCE)")


def _postgres(*statements: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def _drop_left_behind() -> None:
    """Drop the databases of earlier runs whose process has ended (a run that was killed
    never reached its ``stop()``)."""
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE 'binokel_region_%'"
            )
        ]
        for name in names:
            pid = name.rsplit("_", 1)[1]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def postgres_reachable() -> bool:
    """Whether the local PostgreSQL server (``PG_ADMIN_URL``) answers."""
    try:
        _postgres("SELECT 1")
    except Exception:  # noqa: BLE001 - any failure means: not reachable here
        return False
    return True


def prepare(tables: int = 4) -> dict:
    """The data step (in the child process, with the server's settings): see the module's
    docstring; ``tables`` tables of three (``3 × tables`` players).  Returns the JSON-ready
    data."""
    import django

    django.setup()
    from bench.table_entry_load import _prepare
    from tournament.models import Tournament

    config = _prepare(tables=tables, games=6, rounds=3, director=False)
    from bench.table_entry_load import _confirmation_code

    tournament = Tournament.objects.get(pk=config["tournament"])
    return {
        "tournament": tournament.pk,
        "tables": [
            {"token": t["token"], "hands": t["hands"], "code": _confirmation_code(t["link"])}
            for t in config["tables"]
        ],
    }


if __name__ == "__main__":
    if sys.argv[1:2] != ["--prepare"] or len(sys.argv) > 3:
        sys.exit("usage: python -m bench.region_server --prepare [TABLES]")
    print(json.dumps(prepare(*(int(n) for n in sys.argv[2:]))))
