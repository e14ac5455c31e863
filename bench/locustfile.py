"""The users of the load test (:mod:`bench.load_test`): phones and clerks, run by locust.

Run by ``bench.load_test`` as ``python -m bench.locustfile CONFIG.json`` in a process of its
own (locust patches the process with gevent); prints one JSON line with the figures.
``CONFIG.json`` holds the host, the server's instance marker (every answer without it
counts as a foreign answer), the tournament, the run time and per clerk the login, the
table and the hands to type (made by ``bench.load_test``).  Imports no Django.

The server runs with ``DJANGO_DEBUG=0``: session and CSRF cookies are *Secure*, and CSRF
checks ``Origin`` against https.  The clients act as a browser behind the TLS proxy of a
production set-up: ``X-Forwarded-Proto: https`` on every request, ``Origin``/``Referer`` as
``https://<host>``, and the Secure cookies sent on the plain loopback hop (the cookie jar of
``requests`` would keep them back over http, so the ``Cookie`` header is written here).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import gevent
import locust
from locust import HttpUser, constant, task
from locust.env import Environment
from locust.exception import StopUser

POLL_SECONDS = 10
THINK_SECONDS = (3.0, 5.0)
TIMEOUT = 30
TYPING_ORDER = ("declarer", "bid", "trump", "outcome", "melds", "tricks")
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION_RE = re.compile(r'name="version" value="(\d+)"')
STATIC_RE = re.compile(r'(?:href|src)="(/static/[^"]+)"')
CLOCK_RE = re.compile(rb"\d\d:\d\d(:\d\d)?")

CONFIG: dict = {}
COUNTS: Counter = Counter()
TIMINGS: dict[str, list[tuple[float, float]]] = defaultdict(list)  # (start, ms)
FAILURES: Counter = Counter()
BODIES_BY_ETAG: dict[str, set[str]] = defaultdict(set)
_clerk_numbers = itertools.count()


class _Browser(HttpUser):
    """What phones and clerks share: the proxy headers and the Secure cookies."""

    abstract = True

    def _origin(self) -> str:
        if CONFIG.get("plain_http"):  # the venue: plain HTTP on the hall's network
            return self.host
        return self.host.replace("http://", "https://", 1)

    def _headers(self, path: str | None = None, **extra: str) -> dict:
        proxy = {} if CONFIG.get("plain_http") else {"X-Forwarded-Proto": "https"}
        headers = {**proxy, **extra}
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.client.cookies)
        if cookies:
            headers["Cookie"] = cookies
        if path is not None:  # a form post or an htmx request from that page
            headers["Origin"] = self._origin()
            headers["Referer"] = self._origin() + path
        return headers


class Phone(_Browser):
    """A phone on the public standings: the page once, then the htmx poll every 10 s."""

    weight = 1
    wait_time = constant(POLL_SECONDS)

    def on_start(self) -> None:
        self.page = f"/turnier/{CONFIG['tournament']}/"
        self.fragment = f"{self.page}rangliste/"
        self.etag: str | None = None
        self.standings: str | None = None
        self.not_modified = 0  # 304s in a row
        with self.client.get(
            self.page,
            headers=self._headers(),
            name="standings page",
            catch_response=True,
            timeout=TIMEOUT,
        ) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            response.success()
            assets = STATIC_RE.findall(response.text)
        for asset in assets:
            with self.client.get(
                asset, headers=self._headers(), name="static file", catch_response=True
            ) as response:
                if response.status_code == 200:
                    response.success()
                else:
                    response.failure(f"status {response.status_code} for {asset}")
        self.wait()  # htmx polls 10 s after the page loaded

    @task
    def poll(self) -> None:
        headers = self._headers(
            **{"HX-Request": "true", "HX-Current-URL": self._origin() + self.page}
        )
        if self.etag:
            headers["If-None-Match"] = self.etag
        with self.client.get(
            self.fragment,
            headers=headers,
            name="fragment poll",
            catch_response=True,
            timeout=TIMEOUT,
        ) as response:
            if response.status_code == 200:
                response.success()
                COUNTS["poll_200"] += 1
                self.not_modified = 0
                self.etag = response.headers.get("ETag")
                # the fragment carries the time it was rendered; compare the standings only
                standings = hashlib.sha1(CLOCK_RE.sub(b"", response.content)).hexdigest()
                if self.etag:
                    BODIES_BY_ETAG[self.etag].add(standings)
                if standings == self.standings:
                    COUNTS["poll_200_unchanged"] += 1
                self.standings = standings
            elif response.status_code == 304:
                response.success()
                COUNTS["poll_304"] += 1
                self.not_modified += 1
                COUNTS["max_304_streak"] = max(COUNTS["max_304_streak"], self.not_modified)
                if self.not_modified == 3:
                    COUNTS["phones_304_streak_3"] += 1  # counted once per streak
            else:
                response.failure(f"status {response.status_code}")


class Clerk(_Browser):
    """A clerk at one table: log in, then load the table page, type, post the hand."""

    fixed_count = 0  # set from the configuration
    wait_time = constant(0)  # the typing time is inside the task (so a stop lets it finish)

    def on_start(self) -> None:
        self.setup = CONFIG["clerks"][next(_clerk_numbers) % len(CONFIG["clerks"])]
        self.rng = random.Random(self.setup["username"])
        self.table_url = (
            f"/turnier/{CONFIG['tournament']}/runde/{CONFIG['round']}/tisch/{self.setup['table']}/"
        )
        self.validate_url = f"{self.table_url}pruefen/"
        self.next_number = 1
        self.versions: dict[int, int] = {}
        self.logged_in = False
        login = "/accounts/login/"
        with self.client.get(
            f"{login}?next={self.table_url}",
            headers=self._headers(),
            name="login page",
            catch_response=True,
            timeout=TIMEOUT,
        ) as response:
            token = CSRF_RE.search(response.text) if response.status_code == 200 else None
            if token is None:
                response.failure(f"status {response.status_code}, no CSRF token")
                return
            response.success()
        with self.client.post(
            login,
            data={
                "csrfmiddlewaretoken": token.group(1),
                "username": self.setup["username"],
                "password": self.setup["password"],
                "next": self.table_url,
            },
            headers=self._headers(login),
            name="login POST",
            allow_redirects=False,
            catch_response=True,
            timeout=TIMEOUT,
        ) as response:
            location = response.headers.get("Location", "")
            if response.status_code == 302 and location.endswith(self.table_url):
                response.success()
                self.logged_in = True
                COUNTS["logins"] += 1
            else:
                response.failure(f"status {response.status_code}, Location {location!r}")

    @task
    def enter_hand(self) -> None:
        if not self.logged_in:
            raise StopUser()
        hands = self.setup["hands"]
        correction = self.next_number > len(hands)
        number = self.rng.randint(1, len(hands)) if correction else self.next_number
        url = f"{self.table_url}?spiel={number}" if correction else self.table_url
        name = "table page (correction)" if correction else "table page"
        with self.client.get(
            url, headers=self._headers(), name=name, catch_response=True, timeout=TIMEOUT
        ) as response:
            token = CSRF_RE.search(response.text) if response.status_code == 200 else None
            if token is None:
                response.failure(f"status {response.status_code}, no CSRF token")
                gevent.sleep(self.rng.uniform(*THINK_SECONDS))  # no hot loop on a failure
                return
            response.success()
            version = VERSION_RE.search(response.text)
        data = {"csrfmiddlewaretoken": token.group(1), **hands[number - 1]}
        if correction:
            data["version"] = version.group(1) if version else str(self.versions[number])
            data["reason"] = "Lasttest"
        self._type(data)
        with self.client.post(
            self.table_url,
            data=data,
            headers=self._headers(self.table_url),
            name="hand POST",
            allow_redirects=False,
            catch_response=True,
            timeout=TIMEOUT,
        ) as response:
            if response.status_code == 302:
                response.success()
                if correction:
                    COUNTS["hands_corrected"] += 1
                    self.versions[number] += 1
                else:
                    COUNTS["hands_created"] += 1
                    self.versions[number] = 1
                    self.next_number += 1
            else:
                errors = re.findall(r'class="err"[^>]*>([^<]+)<', response.text)
                response.failure(f"status {response.status_code} {errors[:3]}")

    def _type(self, data: dict) -> None:
        """3–5 s of typing, the fields in the clerk's order; after each field the browser's
        live check posts the whole form as it stands (htmx, ``…/pruefen/``)."""
        fields = [
            key
            for group in TYPING_ORDER
            for key in sorted(data)
            if (key == group or key.startswith(group + "_")) and data[key] != ""
        ]
        pause = self.rng.uniform(*THINK_SECONDS) / (len(fields) + 1)
        typed = {key: value for key, value in data.items() if key not in fields}
        typed.update(dict.fromkeys(fields, ""))
        for key in fields:
            gevent.sleep(pause)
            typed[key] = data[key]
            if not CONFIG["validate"]:
                continue
            headers = self._headers(self.table_url, **{"HX-Request": "true"})
            headers["X-CSRFToken"] = data["csrfmiddlewaretoken"]
            with self.client.post(
                self.validate_url,
                data=typed,
                headers=headers,
                name="validate (htmx)",
                catch_response=True,
                timeout=TIMEOUT,
            ) as response:
                if response.status_code == 200:
                    response.success()
                    COUNTS["validations"] += 1
                else:
                    response.failure(f"status {response.status_code}")
        gevent.sleep(pause)


def _on_request(
    name: str,
    response_time: float,
    exception=None,
    start_time: float = 0.0,
    response=None,
    **_kwargs,
) -> None:
    TIMINGS[name].append((start_time, response_time))
    if exception is not None:
        FAILURES[name] += 1
    if response is not None and getattr(response, "status_code", 0):
        # every answer must be the bench's own server's (bench.server): its run's marker
        COUNTS["answers_checked"] += 1
        if response.headers.get(CONFIG["instance_header"]) != CONFIG["instance"]:
            COUNTS["foreign_answers"] += 1


def _percentiles(values: list[float]) -> dict:
    ordered = sorted(values)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    return {
        "count": len(ordered),
        "p50": pick(0.5),
        "p95": pick(0.95),
        "p99": pick(0.99),
        "max": ordered[-1] if ordered else 0.0,
    }


def run(config: dict) -> dict:
    """Run the phones and clerks for ``config['duration']`` seconds; return the figures."""
    CONFIG.update(config)
    Clerk.fixed_count = len(config["clerks"])
    users = config["phones"] + Clerk.fixed_count
    classes = [Phone, Clerk] if config["phones"] else [Clerk]
    # clerks finish the hand they are typing (≤ 5 s + the requests) before the test stops
    env = Environment(user_classes=classes, host=config["host"], stop_timeout=30)
    env.events.request.add_listener(_on_request)
    runner = env.create_local_runner()
    begin, begin_epoch = time.perf_counter(), time.time()
    # phones arrive over one poll interval, so their polls spread over the 10 s
    spawn_rate = max(1.0, users / POLL_SECONDS)
    runner.start(users, spawn_rate=spawn_rate)
    gevent.spawn_later(config["duration"], runner.quit)
    runner.greenlet.join()
    duration = time.perf_counter() - begin

    # whole run, and the steady part: from one poll interval after the last arrival on
    steady_from = begin_epoch + users / spawn_rate + POLL_SECONDS
    stats, steady = {}, {}
    for name, values in TIMINGS.items():
        stats[name] = {**_percentiles([ms for _t, ms in values]), "failures": FAILURES[name]}
        steady[name] = _percentiles([ms for t, ms in values if t >= steady_from])
    total = _percentiles([ms for values in TIMINGS.values() for _t, ms in values])
    total["failures"] = sum(FAILURES.values())
    steady["total"] = _percentiles(
        [ms for values in TIMINGS.values() for t, ms in values if t >= steady_from]
    )
    counts = Counter(COUNTS)
    counts["etags"] = len(BODIES_BY_ETAG)
    counts["etag_reused"] = sum(1 for bodies in BODIES_BY_ETAG.values() if len(bodies) > 1)
    for key in ("poll_200", "poll_200_unchanged", "poll_304", "max_304_streak"):
        counts.setdefault(key, 0)
    for key in ("phones_304_streak_3", "logins", "validations"):
        counts.setdefault(key, 0)
    for key in ("hands_created", "hands_corrected", "answers_checked", "foreign_answers"):
        counts.setdefault(key, 0)
    errors = [
        {"name": e.name, "method": e.method, "error": str(e.error), "occurrences": e.occurrences}
        for e in env.stats.errors.values()
    ]
    return {
        "locust_version": locust.__version__,
        "duration_s": duration,
        "stats": stats,
        "steady": steady,
        "steady_from_s": steady_from - begin_epoch,
        "total": total,
        "counts": dict(counts),
        "errors": errors,
    }


if __name__ == "__main__":
    print(json.dumps(run(json.loads(Path(sys.argv[1]).read_text()))))
