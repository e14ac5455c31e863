"""Publishing to real servers on loopback (issue 40.1): Debian's OpenSSH server (SFTP only,
``deploy/sftp/sshd_config``, a host key and a login key made for the run) and an FTP
server with TLS (pyftpdlib, a self-signed certificate made for the run).  The remote tree
must equal a fresh export file by file, also after the server was cut off during the
evening and came back; an SFTP server's host key is trusted on first use, and another key
later is refused before anything is written."""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest

from archive import publish
from archive.publish.sync import MANIFEST
from archive.publish.targets import trusted_key
from archive.site import export_site
from tests.factories.hands import play_hand

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SSHD_CONFIG = ROOT / "deploy" / "sftp" / "sshd_config"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")


def remote_tree(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != MANIFEST
    }


def same_site(folder: Path, tournament) -> bool:
    """Whether ``folder`` holds a fresh live export of ``tournament``, file by file (the
    index's "Stand HH:MM" and the rules PDF's print time aside: both are there)."""
    fresh = export_site(tournament, live=True)
    remote = remote_tree(folder)
    for timed in ("index.html", "regeln.pdf"):
        fresh.pop(timed)
        if remote.pop(timed, None) is None:
            return False
    return remote == fresh


def keygen(path: Path) -> Path:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path


class Sshd:
    """The SFTP server of one test: started, stopped and started again on one port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.host_key = keygen(folder / "host_key")
        self.login_key = keygen(folder / "login_key")
        self.keys = folder / "authorized_keys"
        shutil.copyfile(folder / "login_key.pub", self.keys)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation folder
        self.process = subprocess.Popen(
            [
                shutil.which("sshd") or "/usr/sbin/sshd",
                "-D", "-e", "-f", str(SSHD_CONFIG), "-p", str(self.port),
                "-h", str(self.host_key),
                "-o", f"AuthorizedKeysFile={self.keys}",
                "-o", f"PidFile={self.folder / 'sshd.pid'}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=(self.folder / "sshd.log").open("ab"),  # read when a test fails
        )  # fmt: skip
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def sshd(tmp_path):
    if not (shutil.which("sshd") or Path("/usr/sbin/sshd").exists()):
        pytest.skip("openssh-server is not installed")
    if os.geteuid() != 0:
        pytest.skip("sshd on loopback needs root (its privilege separation)")
    server = Sshd(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def known_hosts(tmp_path, settings):
    settings.PUBLISH_KNOWN_HOSTS = str(tmp_path / "vereinsseite" / "serverschluessel")
    return Path(settings.PUBLISH_KNOWN_HOSTS)


def sftp_target(server: Sshd, folder: Path) -> publish.Target:
    return publish.parse_target(f"sftp://{getpass.getuser()}@127.0.0.1:{server.port}/{folder}")


def test_sftp_publishes_the_site_and_trusts_the_host_key_on_first_use(
    results_night, sshd, known_hosts, tmp_path
):
    site = tmp_path / "www" / "turnier"
    target = sftp_target(sshd, site)
    report, first_key = publish.publish_tournament(
        results_night, target, key_file=str(sshd.login_key)
    )
    assert first_key is not None and first_key.startswith("ssh-ed25519 ")
    assert known_hosts.stat().st_mode & 0o777 == 0o600
    assert same_site(site, results_night)
    assert len(report.uploaded) == len(remote_tree(site))
    again, first_again = publish.publish_tournament(
        results_night, target, key_file=str(sshd.login_key)
    )
    assert first_again is None and set(again.uploaded) <= {"index.html", "regeln.pdf"}
    assert not list(site.rglob("*.binokel-neu"))


def test_another_host_key_later_is_refused_before_anything_is_written(
    results_night, sshd, known_hosts, tmp_path
):
    site = tmp_path / "www"
    target = sftp_target(sshd, site)
    publish.publish_tournament(results_night, target, key_file=str(sshd.login_key))
    manifest = (site / MANIFEST).read_bytes()
    sshd.stop()
    sshd.host_key.unlink()
    Path(f"{sshd.host_key}.pub").unlink()
    keygen(sshd.host_key)  # the server (or someone posing as it) shows another key
    sshd.start()
    with pytest.raises(publish.HostKeyChanged, match="anderen Schlüssel als beim ersten Mal"):
        publish.publish_tournament(results_night, target, key_file=str(sshd.login_key))
    assert (site / MANIFEST).read_bytes() == manifest


def test_a_server_cut_off_during_the_evening_catches_up_when_it_is_back(
    results_night, clerk, sshd, known_hosts, tmp_path, django_capture_on_commit_callbacks
):
    site = tmp_path / "www"
    target = sftp_target(sshd, site)
    publish.publish_tournament(results_night, target, key_file=str(sshd.login_key))
    sshd.stop()  # the hall's internet is gone
    tables = list(results_night.round_set.get(number=2).tables.order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        play_hand(tables[0], 1, 3, clerk)
    with pytest.raises(publish.PublishError, match="nicht erreichbar"):
        publish.publish_tournament(results_night, target, key_file=str(sshd.login_key))
    assert not same_site(site, results_night)  # the remote still shows the old standings
    with django_capture_on_commit_callbacks(execute=True):
        play_hand(tables[1], 1, 3, clerk)
    sshd.start()
    report, _ = publish.publish_tournament(results_night, target, key_file=str(sshd.login_key))
    assert "gesamt.html" in report.uploaded
    assert same_site(site, results_night)


def test_a_login_the_server_refuses_is_named(results_night, sshd, known_hosts, tmp_path):
    stranger = keygen(tmp_path / "fremd")
    target = sftp_target(sshd, tmp_path / "www")
    with pytest.raises(publish.PublishError, match="abgelehnt"):
        publish.publish_tournament(results_night, target, key_file=str(stranger))
    assert not (tmp_path / "www").exists()
    # the key was stored before the login failed: the director can still compare it
    listed = subprocess.run(
        ["ssh-keygen", "-l", "-f", f"{sshd.host_key}.pub"], capture_output=True, text=True
    ).stdout.split()[1]
    assert trusted_key(target, known_hosts) == f"ssh-ed25519 {listed}"


# ------------------------------------------------------------------------- FTP with TLS


@pytest.fixture
def ftps_server(tmp_path):
    from pyftpdlib.authorizers import DummyAuthorizer
    from pyftpdlib.handlers import TLS_FTPHandler
    from pyftpdlib.servers import FTPServer

    cert = tmp_path / "ftp.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", str(cert), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    home = tmp_path / "ftp-home"
    home.mkdir()
    authorizer = DummyAuthorizer()
    authorizer.add_user("verein", "geheim-123", str(home), perm="elradfmw")

    class Handler(TLS_FTPHandler):
        certfile = str(cert)
        tls_control_required = True
        tls_data_required = True

    Handler.authorizer = authorizer
    server = FTPServer(("127.0.0.1", 0), Handler)
    port = server.socket.getsockname()[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"timeout": 0.2})
    thread.start()
    context = ssl.create_default_context(cafile=str(cert))
    yield port, home, context
    server.close_all()
    thread.join(timeout=10)


def test_ftps_publishes_the_site_with_tls_and_only_what_changed(
    results_night, clerk, ftps_server, django_capture_on_commit_callbacks
):
    port, home, context = ftps_server
    target = publish.parse_target(f"ftps://verein@127.0.0.1:{port}/turnier")
    report, _ = publish.publish_tournament(results_night, target, "geheim-123", tls_context=context)
    assert same_site(home / "turnier", results_night)
    table = results_night.round_set.get(number=2).tables.order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        play_hand(table, 1, 3, clerk)
    second, _ = publish.publish_tournament(results_night, target, "geheim-123", tls_context=context)
    assert "gesamt.html" in second.uploaded and len(second.uploaded) < len(report.uploaded)
    assert same_site(home / "turnier", results_night)
    with pytest.raises(publish.PublishError, match="abgelehnt"):
        publish.publish_tournament(results_night, target, "falsch", tls_context=context)
    # the system's certificate store does not know the server's own certificate
    with pytest.raises(publish.PublishError, match="nicht vertrauenswürdig"):
        publish.publish_tournament(results_night, target, "geheim-123")
