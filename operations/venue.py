"""Tournament night on the club laptop: ``./scripts/venue`` (``python -m operations.venue``).

One command serves the app to the venue's phones over the hall's Wi-Fi (or the laptop's
own hotspot), with no internet needed:

- production settings (``DJANGO_DEBUG=0``) over plain HTTP on the local network
  (``DJANGO_HTTPS=0``: no Secure cookies, no redirect to HTTPS that nobody serves);
- a data folder (``--data``, default ``$BINOKEL_DATA`` or ``~/Binokel-Turnier``) holding the
  SQLite database ``binokel.sqlite3``, the secret key ``secret_key`` (made once, mode
  0600) and the automatic backups in ``sicherungen/``; rerunning the command with the same
  folder resumes the same tournament with the same key (logins stay valid);
- ``ALLOWED_HOSTS`` from the laptop's own addresses, plus ``DJANGO_ALLOWED_HOSTS``;
- the server (:mod:`operations.serve`: waitress, which reads each request whole before a
  thread serves it, so slow phones cannot hold the clerks' threads) bound to ``--bind``
  (default ``0.0.0.0``: every address of the laptop) and ``--port`` (default 8000), with
  ``--processes`` processes (default 2) of ``--threads`` threads (default 4), static files
  by WhiteNoise;
- automatic backups every ``--backup-minutes`` (default 10) and at every round close
  (:func:`archive.backup.automatic_backup`, the newest 20 kept), and one when the command
  is stopped;
- the addresses for phones, the projector and the join screen are printed at the start.

``--restore FILE`` puts a backup back (the server must be stopped; asks first) and
``--demo`` loads the demo tournament into an empty database.  Without ``--demo`` the demo's
well-known logins (their passwords are in the README) are switched off on every start, so
a try-out with ``--demo`` never leaves them open for the real evening in the same folder.

Errors of the server are logged to ``binokel.log`` in the data folder and to the terminal.

Errors (a data folder that cannot be made, a port in use) end the command with a German
message and exit status 1.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import ifaddr

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = "~/Binokel-Turnier"
DATABASE_FILE = "binokel.sqlite3"
SECRET_FILE = "secret_key"
BACKUP_FOLDER = "sicherungen"
LOG_FILE = "binokel.log"


def ensure_secret_key(path: Path) -> bool:
    """Make ``path`` hold a new random secret key (mode 0600) unless it already exists;
    returns True when a key was made.  An existing key is never changed (sessions and
    CSRF tokens of the evening stay valid across restarts), but its mode is tightened."""
    if path.exists():
        os.chmod(path, 0o600)
        if not path.read_text().strip():
            raise OSError(f"{path} ist leer; Datei löschen, dann wird ein neuer Schlüssel erzeugt")
        return False
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_urlsafe(50) + "\n")
    return True


def adapter_addresses() -> list[str]:
    """The IPv4 address of every network interface, loopback included, from the operating
    system's own list (ifaddr: the same call on Linux, macOS and Windows; the laptop's
    hotspot, e.g. 10.42.0.1, is there too), in order, without repeats."""
    found = [
        ip.ip
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if ip.is_IPv4 and isinstance(ip.ip, str)
    ]
    return list(dict.fromkeys(found))


def lan_addresses() -> list[str]:
    """The laptop's own IPv4 addresses other than loopback, best guess first: the address
    the system would send from into a private network (a UDP "connect" sends nothing),
    then every interface's address (:func:`adapter_addresses`: the laptop's own hotspot,
    e.g. 10.42.0.1, has no route to probe), then the host name's.  May be empty (no network)."""
    found: list[str] = []
    for probe in ("192.168.0.1", "10.0.0.1", "172.16.0.1"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                found.append(sock.getsockname()[0])
        except OSError:
            continue
    try:
        found += adapter_addresses()
    except OSError:  # no list from the system: the probes and the host name remain
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    result = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) and address not in result:
            result.append(address)
    return result


def allowed_hosts(addresses: list[str], extra: str = "") -> list[str]:
    """ALLOWED_HOSTS for venue mode: loopback, the given addresses, the host name (also as
    ``<name>.local`` for mDNS) and the comma-separated ``extra`` names."""
    hosts = ["localhost", "127.0.0.1", "[::1]", *addresses]
    name = socket.gethostname()
    if name:
        hosts += [name, f"{name}.local"]
    hosts += [h.strip() for h in extra.split(",") if h.strip()]
    return list(dict.fromkeys(hosts))


def environment(data: Path, public_url: str, hosts: list[str]) -> dict[str, str]:
    """The environment variables the settings read in venue mode (see settings' table)."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "0",
        "DJANGO_SECRET_KEY": "",
        "DJANGO_SECRET_KEY_FILE": str(data / SECRET_FILE),
        "DATABASE_URL": f"sqlite:///{data / DATABASE_FILE}",
        "DJANGO_ALLOWED_HOSTS": ",".join(hosts),
        "BINOKEL_PUBLIC_URL": public_url,
        "BINOKEL_BACKUP_DIR": str(data / BACKUP_FOLDER),
        "BINOKEL_LOG_FILE": str(data / LOG_FILE),
        # the results to the club's website: target and status in the data folder
        "BINOKEL_PUBLISH_DIR": str(data),
        # the laptop's own browser may make the first account (never a server's)
        "BINOKEL_FIRST_RUN_PAGE": "1",
    }


def setup_commands(demo: bool) -> list[tuple[str, ...]]:
    """The ``manage.py`` commands run before the server starts, in order: migrate, remove
    expired sessions, collect the static files, then load the demo (``demo``) or switch
    off the demo's logins."""
    return [
        ("migrate", "-v0"),
        # expired sessions (an abandoned member-list upload in one, too) leave the database
        ("clearsessions",),
        ("collectstatic", "--noinput", "-v0"),
        ("load_demo",) if demo else ("disable_demo_logins",),
    ]


def _manage(*args: str) -> None:
    subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, check=True)


LOCK_FILE = ".venue.lock"


def hold_data_lock(data: Path):
    """Lock the data folder for this process: returns the open lock file (keep it open
    while the venue runs; the OS releases the lock when the process ends, however it
    ends), or ``None`` when another venue holds it.  The lock file is not the database,
    so no SQLite lock is touched (issue 38: a second venue on the same folder started
    without a word)."""
    handle = open(data / LOCK_FILE, "a+")  # noqa: SIM115 - held for the process's life
    try:
        if os.name == "nt":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def write_problems(data: Path, check_database: bool = True) -> list[str]:
    """What keeps the venue from writing its data, as German sentences: the data folder
    and the backup folder must take new files, and an existing database must take a
    write, asked of SQLite itself (a read-only or immutable file made every login answer
    500, with the reason only in the log; issue 38.11)."""
    import sqlite3
    import tempfile

    problems = []
    for folder in (data, data / BACKUP_FOLDER):
        try:
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".schreibprobe-"):
                pass
        except OSError as exc:
            problems.append(f"In den Ordner {folder} kann nicht geschrieben werden ({exc}).")
    database = data / DATABASE_FILE
    if check_database and database.exists():
        try:
            conn = sqlite3.connect(f"{database.as_uri()}?mode=rw", uri=True, timeout=5)
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                conn.execute(f"PRAGMA user_version = {int(version)}")  # a write, no change
            finally:
                conn.close()
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorname", "SQLITE_READONLY") not in (
                "SQLITE_READONLY",
                "SQLITE_CANTOPEN",
                "SQLITE_PERM",
                "SQLITE_AUTH",
            ):
                return problems  # damaged, not read-only: restore_db and the checks say so
            problems.append(
                f"Die Datenbank {database} kann nicht geschrieben werden ({exc}); "
                "Schreibrechte der Datei prüfen."
            )
    return problems


def remove_leftover_parts(backups: Path) -> list[Path]:
    """Remove the half-written backups (``.<name>.<pid>.part`` and their journals) that a
    venue killed during a backup left behind; returns what was removed.  Called while this
    venue holds the data folder's lock, so no backup of another venue is being written."""
    removed = []
    for path in sorted(backups.glob(".*.part")) + sorted(backups.glob(".*.part-journal")):
        path.unlink(missing_ok=True)
        removed.append(path)
    return removed


def _port_free(bind: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((bind, port))
        except OSError:
            return False
    return True


def _backup(reason: str) -> None:
    """One automatic backup in this process (Django is set up); a failure is printed."""
    from django.conf import settings

    from archive import backup

    try:
        report = backup.automatic_backup(settings.BACKUP_DIR, reason)
    except (backup.BackupError, OSError) as exc:
        print(f"Sicherung fehlgeschlagen: {exc}", file=sys.stderr, flush=True)
        # and into binokel.log, where the director looks after the evening
        logging.getLogger("binokel.venue").error("automatic backup (%s) failed: %s", reason, exc)
    else:
        print(f"Sicherung: {report.path.name}", flush=True)


def _banner(base: str, data: Path, addresses: list[str], demo: bool = False) -> str:
    from tournament import accounts
    from tournament.models import Tournament

    tournament = Tournament.objects.order_by("-date", "-pk").first()
    lines = ["", f"  Binokel-Turnier läuft.  Daten: {data}", ""]
    if demo:
        lines += [
            "  DEMO: die Zugänge leitung/leitung-demo und schreiber/schreiber-demo sind offen.",
            "  Nur zum Ausprobieren; ohne --demo gestartet werden sie abgeschaltet.",
            "",
        ]
    if not addresses:
        lines.append("  Achtung: kein Netzwerk gefunden, Handys erreichen den Laptop nicht.")
    if not accounts.has_accounts():
        lines += [
            "  Noch kein Konto: im Browser DIESES Laptops http://127.0.0.1:"
            f"{base.rsplit(':', 1)[-1]}/ öffnen",
            "  und das Konto der Turnierleitung anlegen (oder: ./scripts/venue --konto-anlegen).",
            "",
        ]
    if tournament:
        lines += [
            f"  Handys (Rangliste):  {base}/turnier/{tournament.pk}/",
            f"  Beamer:              {base}/turnier/{tournament.pk}/beamer/",
            f"  QR-Code zum Zeigen:  {base}/turnier/{tournament.pk}/beitreten/",
            f"  Aushang (PDF):       {base}/turnier/{tournament.pk}/druck/aushang.pdf",
        ]
    lines += [
        f"  Turnierleitung:      {base}/",
        f"  Fehlerprotokoll:     {data / LOG_FILE}",
        "  (Strg+C beendet den Server; eine letzte Sicherung wird geschrieben)",
        "",
    ]
    return "\n".join(lines)


class _GermanHelpFormatter(argparse.HelpFormatter):
    """argparse's help with the German heading "Aufruf:" instead of "usage:"."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "Aufruf: " if prefix is None else prefix)


#: argparse's own English error messages, as the director sees them in German
_ARGPARSE_ERRORS = (
    (re.compile(r"^argument (\S+): "), r"Option \1: "),
    (re.compile(r"unrecognized arguments: "), "unbekannte Angaben: "),
    (re.compile(r"expected one argument"), "dahinter fehlt ein Wert"),
    (re.compile(r"invalid int value: "), "keine ganze Zahl: "),
    (re.compile(r"invalid float value: "), "keine Zahl: "),
)


class _GermanArgumentParser(argparse.ArgumentParser):
    """The parser of ``scripts/venue``: German help, and German error lines for the
    mistakes a director makes (an unknown option, a missing or wrong value)."""

    def error(self, message: str):
        for pattern, german in _ARGPARSE_ERRORS:
            message = pattern.sub(german, message)
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: Fehler: {message}\n")


def run_command(data: Path, command: list[str], caller: Path) -> int:
    """Run ``manage.py`` with ``command`` on the evening kept in ``data`` (issue 37.28: the
    README's commands did not find the venue's data folder).  Nothing is created: a
    missing folder or database is a German message and exit status 1.  Relative paths in
    the command's arguments stay relative to ``caller`` (where the command was typed).
    Returns the command's exit status."""
    if not command:
        print(
            "--befehl braucht einen Befehl, z. B. --befehl export_site 1 webseite.zip",
            file=sys.stderr,
        )
        return 2
    database = data / DATABASE_FILE
    if not database.is_file():
        print(
            f"Im Datenordner {data} liegt keine Datenbank ({DATABASE_FILE}). Den Ordner "
            "angeben, mit dem scripts/venue den Abend gestartet hat (--data ORDNER).",
            file=sys.stderr,
        )
        return 1
    environ = {**os.environ, **environment(data, "http://127.0.0.1", ["127.0.0.1", "localhost"])}
    environ.pop("BINOKEL_FIRST_RUN_PAGE", None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *command], cwd=caller, env=environ
    )
    return done.returncode


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``scripts/venue``, with German help for every option."""
    parser = _GermanArgumentParser(
        prog="scripts/venue",
        description=(
            "Turnierabend auf dem Vereins-Laptop: startet den Server für die Handys im Saal "
            "(ohne Internet), mit automatischen Sicherungen. Daten, Schlüssel und "
            "Sicherungen liegen im Datenordner."
        ),
        formatter_class=_GermanHelpFormatter,
        add_help=False,
    )
    parser._optionals.title = "Optionen"
    parser.add_argument("-h", "--help", action="help", help="diese Hilfe zeigen und beenden")
    parser.add_argument(
        "--data",
        metavar="ORDNER",
        default=os.environ.get("BINOKEL_DATA", DEFAULT_DATA),
        help=(
            "Datenordner mit Datenbank, geheimem Schlüssel, Sicherungen und Fehlerprotokoll "
            f"(Standard: $BINOKEL_DATA, sonst {DEFAULT_DATA}); derselbe Ordner setzt dasselbe "
            "Turnier fort"
        ),
    )
    parser.add_argument(
        "--bind",
        metavar="ADRESSE",
        default="0.0.0.0",
        help="Adresse, an der der Server lauscht (Standard 0.0.0.0: alle Adressen des Laptops)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="Port des Servers (Standard: %(default)s)"
    )
    parser.add_argument(
        "--processes",
        metavar="ANZAHL",
        type=int,
        default=2 if os.name == "posix" else 1,
        help="Anzahl der Server-Prozesse (Standard: %(default)s; unter Windows immer 1)",
    )
    parser.add_argument(
        "--threads",
        metavar="ANZAHL",
        type=int,
        default=4,
        help="Threads je Server-Prozess (Standard: %(default)s)",
    )
    parser.add_argument(
        "--backup-minutes",
        metavar="MINUTEN",
        type=float,
        default=10.0,
        help=(
            "alle so viele Minuten eine automatische Sicherung (Standard: 10); dazu eine bei "
            "jedem Rundenabschluss und eine beim Beenden"
        ),
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="das Demo-Turnier in eine leere Datenbank laden (nur zum Ausprobieren)",
    )
    parser.add_argument(
        "--restore",
        metavar="SICHERUNG",
        help="eine Sicherung zurückspielen, dann beenden (der Server muss gestoppt sein)",
    )
    parser.add_argument(
        "--yes", action="store_true", help="mit --restore: ohne Rückfrage zurückspielen"
    )
    parser.add_argument(
        "--neue-konten",
        action="store_true",
        dest="new_accounts",
        help=(
            "mit --restore: die Konten der Sicherung übernehmen (Konten der Turnierleitung, "
            "die diese Datenbank nicht hat, und andere Passwörter für ihre Konten)"
        ),
    )
    parser.add_argument(
        "--konto-anlegen",
        action="store_true",
        dest="new_account",
        help="vor dem Start ein Konto der Turnierleitung auf der Kommandozeile anlegen",
    )
    parser.add_argument(
        "--befehl",
        metavar="BEFEHL",
        nargs=argparse.REMAINDER,
        dest="command",
        help=(
            "statt den Server zu starten einen manage.py-Befehl auf den Daten dieses "
            "Datenordners ausführen, z. B. --befehl export_site 1 ~/webseite.zip "
            "(alles danach gehört zum Befehl; geht auch, während der Abend läuft)"
        ),
    )
    parser.add_argument(
        "--public-host",
        metavar="ADRESSE",
        help=(
            "die Adresse, unter der die Handys den Laptop erreichen (QR-Codes, gedruckte "
            "Adressen), wenn die erkannte nicht stimmt"
        ),
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    # relative paths are meant from where the command was typed (scripts/venue changes
    # into the repository first and passes that folder on)
    caller = Path(os.environ.get("BINOKEL_CALLER_DIR") or os.getcwd())
    data = (caller / Path(args.data).expanduser()).resolve()
    if args.command is not None:
        return run_command(data, args.command, caller)
    try:
        data.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(data, 0o700)  # database, key and backups: the owner's only
        (data / BACKUP_FOLDER).mkdir(exist_ok=True)
        made_key = ensure_secret_key(data / SECRET_FILE)
    except OSError as exc:
        print(f"Datenordner {data} geht nicht: {exc}", file=sys.stderr)
        return 1
    addresses = lan_addresses()
    if args.bind not in ("0.0.0.0", "::"):
        addresses = [args.bind] + [a for a in addresses if a != args.bind]
    if args.public_host:
        addresses = [args.public_host] + [a for a in addresses if a != args.public_host]
    host = addresses[0] if addresses else "127.0.0.1"
    base = f"http://{f'[{host}]' if ':' in host else host}:{args.port}"
    hosts = allowed_hosts(addresses, os.environ.get("DJANGO_ALLOWED_HOSTS", ""))
    os.environ.update(environment(data, base, hosts))
    restore = (caller / Path(args.restore).expanduser()).resolve() if args.restore else None
    os.chdir(ROOT)

    lock = hold_data_lock(data)
    if lock is None:
        print(
            f"Im Datenordner {data} läuft schon ein Turnierabend (ein zweites "
            "scripts/venue). Erst den anderen beenden.",
            file=sys.stderr,
        )
        return 1
    # a restore replaces the database, damaged or not: only the folders must take files
    problems = write_problems(data, check_database=restore is None)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    for leftover in remove_leftover_parts(data / BACKUP_FOLDER):
        print(f"Halbe Sicherung entfernt: {leftover.name}", flush=True)

    if not _port_free(args.bind, args.port):
        print(
            f"Port {args.port} ist belegt: läuft der Server schon? Erst beenden"
            + ("." if restore else " (oder mit --port einen anderen wählen)."),
            file=sys.stderr,
        )
        return 1
    try:
        if restore:
            flags = ["--yes"] if args.yes else []
            flags += ["--neue-konten"] if args.new_accounts else []
            _manage("restore_db", str(restore), *flags)
            return 0
        if made_key:
            print(f"Neuer geheimer Schlüssel in {data / SECRET_FILE}", flush=True)
        for step in setup_commands(args.demo):
            _manage(*step)
        if args.new_account:
            _manage("leitung_anlegen")
    except subprocess.CalledProcessError as exc:
        print(
            f"Abgebrochen: »{' '.join(exc.cmd[2:])}« ist fehlgeschlagen (siehe oben).",
            file=sys.stderr,
        )
        return 1

    import django

    django.setup()
    bind = f"[{args.bind}]" if ":" in args.bind else args.bind
    command = [sys.executable, "-m", "operations.serve", "--listen", f"{bind}:{args.port}"]
    command += ["--processes", str(args.processes), "--threads", str(args.threads)]
    server = subprocess.Popen(command, cwd=ROOT)
    print(_banner(base, data, addresses, args.demo), flush=True)

    stop = threading.Event()
    # SIGHUP: the terminal was closed (POSIX only; Windows has no such signal)
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is None:
            continue
        signal.signal(signum, lambda *_: stop.set())
    from archive.publish.live import LivePublisher

    publisher = LivePublisher(data)  # an upload runs in its own thread, never in a request
    try:
        next_backup = time.monotonic() + args.backup_minutes * 60
        while not stop.wait(1.0):
            try:
                publisher.tick()
            except Exception:  # publishing must never end the evening
                logging.getLogger("archive.publish").exception("the publisher failed")
            if server.poll() is not None:
                print("Der Server ist beendet.", file=sys.stderr)
                return 1
            if time.monotonic() >= next_backup:
                _backup("timer")
                next_backup = time.monotonic() + args.backup_minutes * 60
    except KeyboardInterrupt:
        pass
    finally:
        print("Server wird beendet (laufende Anfragen werden fertig) …", flush=True)
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        print("Letzte Sicherung …", flush=True)
        _backup("ende")
        print("Beendet.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
