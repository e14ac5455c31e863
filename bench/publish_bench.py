"""Benchmark of publishing the results to the club's website (issue 40.1).

Run: ``python -m bench.publish_bench [--players 600] [--repeat 3]``.  A child process gets a
fresh SQLite database, generates a tournament of N players (3 rounds × 12 games, the last
round half entered, as :mod:`bench.app_bench` does) and publishes its live site to a local
folder and, where Debian's ``sshd`` can run (root, ``deploy/sftp/sshd_config``), to an SFTP
server on loopback.  It measures, each ``--repeat`` times in turns:

- the whole site to an empty target: seconds and bytes uploaded (files, MB);
- after one more hand is saved: seconds and what went up (files, KB), the time to make
  the site included (every page is rendered again; only the changed ones are sent).

Figures are medians with the spread (min–max) in brackets.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _sshd(folder: Path):
    """An SFTP server on loopback for this run, or ``None`` where sshd cannot run."""
    sshd = shutil.which("sshd") or "/usr/sbin/sshd"
    if not Path(sshd).exists() or os.geteuid() != 0:
        return None
    import socket

    for name in ("host", "login"):
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(folder / name)],
            check=True,
        )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    Path("/run/sshd").mkdir(exist_ok=True)
    process = subprocess.Popen(
        [
            sshd, "-D", "-e", "-f", str(ROOT / "deploy" / "sftp" / "sshd_config"),
            "-p", str(port), "-h", str(folder / "host"),
            "-o", f"AuthorizedKeysFile={folder / 'login.pub'}",
            "-o", f"PidFile={folder / 'sshd.pid'}",
        ],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process, port, folder / "login"
        time.sleep(0.05)
    process.terminate()
    return None


def _child(players: int, repeat: int) -> dict:
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.models import Tournament

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # manifest for DEBUG=0
    call_command("generate_tournament", players=players, seed=players, stdout=open(os.devnull, "w"))
    tournament = Tournament.objects.get()
    work = Path(tempfile.mkdtemp(prefix="publish-bench-"))
    server = _sshd(work)
    try:
        return _measure(tournament, players, repeat, work, server)
    finally:
        if server is not None:
            server[0].terminate()
        shutil.rmtree(work, ignore_errors=True)


def _measure(tournament, players: int, repeat: int, work: Path, server) -> dict:
    from django.conf import settings

    from archive import publish
    from scoring import services
    from scoring.models import Hand

    targets = {"folder": lambda n: (publish.parse_target(str(work / f"ordner-{n}")), None)}
    if server is not None:
        _, port, login_key = server
        user = getpass.getuser()
        targets["sftp"] = lambda n: (
            publish.parse_target(f"sftp://{user}@127.0.0.1:{port}/{work}/sftp-{n}"),
            str(login_key),
        )
    settings.PUBLISH_KNOWN_HOSTS = str(work / "known_hosts")
    # the hand changed between the publishes: a correction of the last round's first hand
    hand = Hand.objects.filter(table__round__status="running").order_by("pk").first()
    result: dict = {"players": players, "targets": {}}
    samples: dict = {name: {"full": [], "one": []} for name in targets}
    for n in range(repeat):
        for name, make in targets.items():
            target, key = make(n)
            site = publish.live_site(tournament)
            start = time.perf_counter()
            report, _ = publish.publish_tournament(tournament, target, key_file=key)
            full = time.perf_counter() - start
            sent = sum(len(site[f]) for f in report.uploaded)
            services.save_hand(
                hand.table,
                services.hand_input_from(hand, bid=hand.bid + 10 * (n + 1)),
                None,
                expected_version=hand.version,
                reason="bench",
            )
            hand.refresh_from_db()
            start = time.perf_counter()
            again, _ = publish.publish_tournament(tournament, target, key_file=key)
            one = time.perf_counter() - start
            site = publish.live_site(tournament)
            samples[name]["full"].append((full, len(report.uploaded), sent))
            samples[name]["one"].append(
                (one, len(again.uploaded), sum(len(site[f]) for f in again.uploaded if f in site))
            )
    for name, runs in samples.items():
        result["targets"][name] = {
            kind: {
                "s": [r[0] for r in values],
                "files": values[-1][1],
                "bytes": values[-1][2],
            }
            for kind, values in runs.items()
        }
    return result


def _fmt(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} [{min(values):.2f}–{max(values):.2f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.players, args.repeat)))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-only-not-secret",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
            "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
        }
        command = [sys.executable, "-m", "bench.publish_bench", "--child"]
        command += ["--players", str(args.players), "--repeat", str(args.repeat)]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr)
        return 1
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"Publishing the live site of {result['players']} players (loopback, medians)")
    print("| target | whole site: s | files | MB | one hand later: s | files | KB |")
    print("|---|---|---|---|---|---|---|")
    for name, kinds in result["targets"].items():
        full, one = kinds["full"], kinds["one"]
        print(
            f"| {name} | {_fmt(full['s'])} | {full['files']} | {full['bytes'] / 1e6:.1f} "
            f"| {_fmt(one['s'])} | {one['files']} | {one['bytes'] / 1e3:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
