"""The venue's HTTP server: waitress serving the app (``python -m operations.serve``).

Why waitress and not gunicorn (issue 38.2): gunicorn's threaded worker gives a thread to a
connection as soon as it is accepted, so 16 phones that send one header byte every 2 s held
all 8 threads of the venue and the clerks' pages stopped answering.  waitress reads every
request whole (headers and body) in its event loop and gives a thread only to a complete
request: a slow connection costs a socket, not a thread.  It is pure Python and runs on
Linux, macOS and Windows alike.

``--processes`` processes (default 2 on Linux and macOS: Django renders under Python's
GIL, so one process uses one core; the load test with one process had a p95 several
times gunicorn's 2 workers) of ``--threads`` threads each (default 4).  This process binds
the listening socket and starts the workers, which inherit it and accept on it in turn;
it stops them on SIGTERM or Ctrl+C and ends when one of them ends.  On Windows, where a
socket is not inherited this way, one process serves with ``processes × threads``
threads.  Each process keeps its own cache and throttle counters, as gunicorn's workers
did (``REDIS_URL`` shares them).  Settings as the venue's environment gives them
(``operations.venue.environment``).

Limits chosen here:

- ``connection_limit`` 1000 and ``channel_timeout`` 60 s: 200 phones keep one or two
  connections each; a connection that sends nothing for a minute is closed.  A connection
  that trickles a byte now and then stays open, costing a socket only.
- ``max_request_body_size`` 64 MB: the largest upload is a tournament file or a backup.
- the process's limit of open files is raised towards 4096 where the OS allows it
  (POSIX), and ``poll()`` is used instead of ``select()`` where it exists, so more than
  1024 sockets work.
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys

THREADS = 4
PROCESSES = 2
CONNECTION_LIMIT = 1000
CHANNEL_TIMEOUT = 60
MAX_BODY = 64 * 1024 * 1024


def server_options(listen: str, threads: int = THREADS) -> dict:
    """waitress's settings for the venue: ``listen`` is ``host:port`` (``[::]:8000`` for
    IPv6); returns the keyword arguments of :func:`waitress.create_server`."""
    import select

    return {
        "listen": listen,
        "threads": threads,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT,
        "max_request_body_size": MAX_BODY,
        "asyncore_use_poll": hasattr(select, "poll"),
        # the venue has no proxy in front of it: forwarded headers are nobody's to send
        "clear_untrusted_proxy_headers": True,
        "ident": "Binokel-Turnier",
    }


def _raise_open_files(wanted: int = 4096) -> None:
    """Raise the soft limit of open files towards ``wanted`` (POSIX only; quietly kept
    where the hard limit is lower or the OS has no such limit)."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def listening(server) -> list[tuple[str, int]]:
    """The (host, port) pairs a server of :func:`waitress.create_server` listens on, IPv6
    hosts in brackets."""
    pairs = getattr(server, "effective_listen", None) or [
        (server.effective_host, server.effective_port)
    ]
    return [(f"[{host}]" if ":" in str(host) else str(host), int(port)) for host, port in pairs]


def _listen_socket(listen: str) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``[::]:8000`` for IPv6), inheritable by
    the worker processes."""
    host, _, port = listen.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"  # noqa: S104 - the venue serves the hall
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, int(port)))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def _serve(options: dict, sock: socket.socket | None = None) -> None:
    """Serve the app in this process until SIGTERM or Ctrl+C: on ``sock`` (a worker) or
    on ``options["listen"]``."""
    import os

    from django.core.wsgi import get_wsgi_application
    from waitress import create_server

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    application = get_wsgi_application()  # as config.wsgi makes it for gunicorn
    _raise_open_files()
    if sock is not None:
        options = {k: v for k, v in options.items() if k != "listen"}
        server = create_server(application, sockets=[sock], **options)
    else:
        server = create_server(application, **options)

    def stop(*_):
        raise SystemExit(0)  # waitress's run() catches it and finishes the running requests

    signal.signal(signal.SIGTERM, stop)
    logging.getLogger("waitress").setLevel(logging.WARNING)
    if sock is None:
        for host, port in listening(server):
            print(f"Server lauscht auf http://{host}:{port}", flush=True)
    server.run()


def _supervise(listen: str, processes: int, threads: int) -> int:
    """Bind ``listen``, start ``processes`` workers on the socket, and wait: SIGTERM or
    Ctrl+C stops them (exit status 0); a worker that ends on its own ends the others
    (exit status 1)."""
    import subprocess
    import time

    sock = _listen_socket(listen)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    command = [sys.executable, "-m", "operations.serve", "--fd", str(sock.fileno())]
    command += ["--threads", str(threads)]
    workers = [subprocess.Popen(command, pass_fds=[sock.fileno()]) for _ in range(processes)]
    print(f"Server lauscht auf http://{shown}:{port} ({processes} × {threads})", flush=True)
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    status = 0
    try:
        while not stopping:
            if any(w.poll() is not None for w in workers):
                status = 1
                break
            time.sleep(0.5)
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.kill()
        sock.close()
    return status


def main(argv: list[str] | None = None) -> int:
    """Serve the app (Django's WSGI application, as ``config.wsgi`` makes it) until
    SIGTERM or Ctrl+C (exit status 0)."""
    import os

    parser = argparse.ArgumentParser(prog="python -m operations.serve")
    parser.add_argument("--listen", default="127.0.0.1:8000", help="host:port")
    parser.add_argument("--threads", type=int, default=THREADS, help="threads per process")
    parser.add_argument(
        "--processes",
        type=int,
        default=PROCESSES if os.name == "posix" else 1,
        help="worker processes sharing the socket (POSIX; on Windows always 1)",
    )
    parser.add_argument("--fd", type=int, help=argparse.SUPPRESS)  # a worker's socket
    args = parser.parse_args(argv)
    if args.fd is not None:
        _serve(server_options("", args.threads), socket.socket(fileno=args.fd))
        return 0
    if args.processes > 1 and os.name == "posix":
        return _supervise(args.listen, args.processes, args.threads)
    threads = args.threads * max(args.processes, 1)
    _serve(server_options(args.listen, threads))
    return 0


if __name__ == "__main__":
    sys.exit(main())
