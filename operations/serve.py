"""The venue's HTTP server: waitress serving the app (``python -m operations.serve``).

Why waitress and not gunicorn (issue 38.2): gunicorn's threaded worker gives a thread to a
connection as soon as it is accepted, so 16 phones that send one header byte every 2 s held
all 8 threads of the venue and the clerks' pages stopped answering.  waitress reads every
request whole (headers and body) in its event loop and gives a thread only to a complete
request: a slow connection costs a socket, not a thread.  It is pure Python and runs on
Linux, macOS and Windows alike.

One process with ``--threads`` threads (default 8, as gunicorn's 2 workers × 4 threads
before): the in-process cache and the throttles' counters are then one for the whole
venue.  Settings as the venue's environment gives them (``operations.venue.environment``).

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
import sys

THREADS = 8
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


def main(argv: list[str] | None = None) -> int:
    """Serve the app (Django's WSGI application, as ``config.wsgi`` makes it) until SIGTERM or Ctrl+C (exit status 0)."""
    parser = argparse.ArgumentParser(prog="python -m operations.serve")
    parser.add_argument("--listen", default="127.0.0.1:8000", help="host:port")
    parser.add_argument("--threads", type=int, default=THREADS)
    args = parser.parse_args(argv)

    import os

    from django.core.wsgi import get_wsgi_application
    from waitress import create_server

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    application = get_wsgi_application()  # as config.wsgi makes it for gunicorn

    _raise_open_files()
    server = create_server(application, **server_options(args.listen, args.threads))

    def stop(*_):
        raise SystemExit(0)  # waitress's run() catches it and finishes the running requests

    signal.signal(signal.SIGTERM, stop)
    logging.getLogger("waitress").setLevel(logging.WARNING)
    for host, port in listening(server):
        print(f"Server lauscht auf http://{host}:{port}", flush=True)
    server.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
