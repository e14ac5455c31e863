"""Django settings, read from environment variables.

| variable | default | meaning |
|---|---|---|
| ``DJANGO_SECRET_KEY`` | a development key (refused when ``DJANGO_DEBUG=0``) | |
| ``DJANGO_DEBUG`` | ``1`` | ``0`` for production |
| ``DJANGO_ALLOWED_HOSTS`` | ``localhost,127.0.0.1,[::1]`` (+ ``*`` in debug) | comma-separated |
| ``DATABASE_URL`` | ``sqlite:///<project>/db.sqlite3`` | e.g. ``postgres://user@127.0.0.1:5432/binokel`` |
| ``DJANGO_SECRET_KEY_FILE`` | empty | a file holding the secret key (used when ``DJANGO_SECRET_KEY`` is empty) |
| ``DJANGO_CSRF_TRUSTED_ORIGINS`` | empty | comma-separated origins behind a proxy |
| ``DJANGO_HTTPS`` | ``1`` | ``0``: plain HTTP on the venue network (no Secure cookies, no redirect, no HSTS) |
| ``BINOKEL_PUBLIC_URL`` | empty | base address for phones in QR codes, e.g. ``http://192.168.1.20:8000`` |
| ``BINOKEL_BACKUP_DIR`` | empty | automatic backups at every round close (venue mode) |
| ``REDIS_URL`` | empty (a cache per process) | e.g. ``redis://127.0.0.1:6379/0``: one cache shared by every worker and app server |
| ``DJANGO_CACHE_PREFIX`` | ``binokel`` | key prefix in a Redis shared with other installations |
| ``BINOKEL_LOG_FILE`` | empty | also write errors to this file (0600, rotated; venue mode: ``<data>/binokel.log``) |
| ``BINOKEL_INSTANCE`` | empty | load benches only: echoed as ``X-Binokel-Instance`` on every answer |
| ``BINOKEL_PUBLIC_PDF_RATE`` | ``20/m`` | renders of public PDFs per client address |
| ``DJANGO_STATIC_ROOT`` | ``<project>/staticfiles`` | where ``collectstatic`` writes the static files |
| ``BINOKEL_FIRST_RUN_PAGE`` | ``0`` | ``1`` (the venue sets it): on an empty database the laptop's own browser may make the first director's account; a server never offers it |
| ``BINOKEL_SHARED_CACHE_SECONDS`` | ``2`` | how long a reverse proxy's cache may serve a public page for everyone (``s-maxage``); ``0``: never |
| ``BINOKEL_TRUSTED_PROXIES`` | empty | comma-separated addresses or networks of the reverse proxy; only from them is ``X-Forwarded-For`` read as the client's address |
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
# DJANGO_DEBUG_PAGES=1: Django's technical 404/500 pages while developing; otherwise the
# app's own pages in the visitor's language also with DEBUG on (config.middleware)
DEBUG_ERROR_PAGES = os.environ.get("DJANGO_DEBUG_PAGES", "0") == "1"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY and os.environ.get("DJANGO_SECRET_KEY_FILE"):
    # the venue command keeps the key in a file of its data folder (0600), outside the repo
    SECRET_KEY = Path(os.environ["DJANGO_SECRET_KEY_FILE"]).read_text().strip()
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0")
    SECRET_KEY = "dev-only-insecure-key-binokel-turnier"  # noqa: S105 - development default

ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
if DEBUG:
    ALLOWED_HOSTS.append("*")
CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# The first-run page ("Erstes Konto", tournament.accounts.is_local) exists only where the
# deployment says so: the venue command sets it for the laptop in the hall.  A server has
# no page for it (a stranger could reach it through the proxy); its first account is made
# with ``manage.py leitung_anlegen`` (docs/operations.md).
FIRST_RUN_PAGE = os.environ.get("BINOKEL_FIRST_RUN_PAGE", "0") == "1"
# The reverse proxy in front of the app (docs/operations.md): only a request from one of
# these addresses has its X-Forwarded-For read for the client's address
# (config.middleware.ProxiedClientAddress); from anybody else the header is ignored.
TRUSTED_PROXIES = _env_list("BINOKEL_TRUSTED_PROXIES")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "simple_history",
    "axes",
    # the project's own apps, from the engine up (README, "How the code is laid out")
    "tournament",
    "scoring",
    "table_entry",
    "prizes",
    "series",
    "hall",
    "door",
    "printing",
    "archive",
    "operations",
]

MIDDLEWARE = [
    # only with $BINOKEL_INSTANCE (the load benches): marks every answer as this server's
    "config.instance.InstanceMarker",
    # behind a configured proxy: the client's address from X-Forwarded-For, before the
    # throttles (django-ratelimit, django-axes) and the first-run check read it
    "config.middleware.ProxiedClientAddress",
    "django.middleware.security.SecurityMiddleware",
    # the app's own 400/404/405/500 pages, also with DEBUG on (the demo)
    "config.middleware.OwnErrorPages",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.ChosenLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # staff pages and table links: never kept by a browser or proxy (after the user is known)
    "config.middleware.PrivatePages",
    # an empty database: the laptop's browser is led to make the director's account
    "config.middleware.FirstRunMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Content-Security-Policy (django-csp): scripts, styles and images only from the app
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # last, as django-axes requires: answers a locked-out login attempt
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): after 5 failed attempts for one user name from one address
# that pair is locked for 15 minutes.  Locking by the pair, not by address alone, because a
# whole venue may share one address behind the club's router.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# Table-entry links (/t/<token>/), throttled with django-ratelimit (table_entry/throttle.py):
# per token (one table's phones, live validation included), per address over all valid
# tokens (a venue may share one router address), and unknown/revoked tokens per address and
# per guessed prefix (never the valid links of a shared address).
TABLE_LINK_RATE_TOKEN = os.environ.get("BINOKEL_TABLE_LINK_RATE_TOKEN", "300/m")
TABLE_LINK_RATE_ADDRESS = os.environ.get("BINOKEL_TABLE_LINK_RATE_ADDRESS", "3000/m")
TABLE_LINK_RATE_MISSES = os.environ.get("BINOKEL_TABLE_LINK_RATE_MISSES", "30/m")
# Renders of the public PDFs (table plan, results list, rules, poster, series) per client
# address (printing/views.py); a cached copy is served without counting, signed-in staff
# are not counted.  Over the limit: HTTP 429 until the window has passed.
PUBLIC_PDF_RATE = os.environ.get("BINOKEL_PUBLIC_PDF_RATE", "20/m")
# wrong confirmation codes (the code printed on the table card: 4 digits) per phone at a
# table link, and per link over all its phones (a guesser locks out his own phone, the
# table only after many; the director lifts it on the table links page)
TABLE_CONFIRM_CODE_RATE = os.environ.get("BINOKEL_TABLE_CONFIRM_CODE_RATE", "10/10m")
TABLE_CONFIRM_CODE_LINK_RATE = os.environ.get("BINOKEL_TABLE_CONFIRM_CODE_LINK_RATE", "40/10m")
# calls for the director from one table's link (hall.views.table_call): one is open at a
# time anyway; this keeps a bored table from calling again and again after each "done"
DIRECTOR_CALL_RATE = os.environ.get("BINOKEL_DIRECTOR_CALL_RATE", "6/h")
# django-ratelimit is used through its functions only (not an installed app); its
# decorator's 403 is not used: a throttled phone gets the 429 page of table_entry.views.
# When the cache cannot count (Redis down: config.cache answers as an empty cache), the
# links stay open instead of refusing every table in the hall: the throttle spares the
# server, the secret is the 160-bit token, which no rate of guessing reaches.
RATELIMIT_FAIL_OPEN = True
# Public pages (anonymous GET, no cookie set) say "Cache-Control: public, s-maxage=N": a
# reverse proxy's cache (nginx on a region's server, deploy/nginx/binokel.conf) answers
# every phone from one copy for N seconds; a saved hand shows at most N seconds later
# there.  Browsers revalidate each time (max-age=0).  config.middleware.PrivatePages.
SHARED_CACHE_SECONDS = int(os.environ.get("BINOKEL_SHARED_CACHE_SECONDS", "2"))

# A table's token is its permission: it never reaches the logs.  Django logs the path of
# every 4xx/5xx answer (django.request) and runserver every request (django.server); both
# go through a filter that writes "/t/…/" instead of the token (Django's default logging
# otherwise).  gunicorn's access log: --logger-class config.logs.GunicornLogger.
#
# Problems are logged in every mode (DEBUG on and off): errors of Django (a 500 with its
# traceback) and warnings and errors of this project's loggers go to stderr and, when
# BINOKEL_LOG_FILE is set (the venue command: <data folder>/binokel.log), also to that file
# (mode 0600, rotated at 2 MB, 5 old files kept; config.logs.PrivateLogFile).  With DEBUG
# the "console" handler writes them (with Django's INFO), without DEBUG the "problems"
# handler: never both.  No "mail_admins" handler: no mail server is configured and ADMINS
# is empty, so it sent nothing, and a 500 went nowhere at all.  Every handler redacts
# table tokens (config.logs.RedactTableTokens), in the traceback too.
_LOG_FILE = os.environ.get("BINOKEL_LOG_FILE", "")
_PROBLEM_HANDLERS = ["console", "problems", *(["file"] if _LOG_FILE else [])]
#: the project's own packages, each with a logger of its modules (logging.getLogger(__name__))
PROJECT_LOGGERS = (
    "binokel",
    "config",
    "rules",
    "tournament",
    "scoring",
    "table_entry",
    "prizes",
    "series",
    "printing",
    "archive",
    "operations",
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "require_debug_true": {"()": "django.utils.log.RequireDebugTrue"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        "table_tokens": {"()": "config.logs.RedactTableTokens"},
        # errors of every logger, warnings of the project's own (not Django's 404s)
        "problems_only": {"()": "config.logs.ProblemsOnly"},
        "one_line": {"()": "config.logs.OneLineWarning"},
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
        "problems": {"()": "config.logs.ProblemFormatter"},
    },
    "handlers": {
        "console": {
            "level": "INFO",
            "filters": ["require_debug_true", "table_tokens"],
            "class": "logging.StreamHandler",
        },
        "problems": {
            "level": "WARNING",
            "filters": ["require_debug_false", "problems_only", "table_tokens"],
            "class": "logging.StreamHandler",
            "formatter": "problems",
        },
        "refused_host": {
            "level": "WARNING",
            "filters": ["table_tokens"],
            "class": "logging.StreamHandler",
            "formatter": "problems",
        },
        "django.server": {
            "level": "INFO",
            "filters": ["table_tokens"],
            "class": "logging.StreamHandler",
            "formatter": "django.server",
        },
        **(
            {
                "file": {
                    "level": "WARNING",
                    "filters": ["problems_only", "table_tokens"],
                    "class": "config.logs.PrivateLogFile",
                    "filename": _LOG_FILE,
                    "formatter": "problems",
                }
            }
            if _LOG_FILE
            else {}
        ),
    },
    "loggers": {
        "django": {"handlers": _PROBLEM_HANDLERS, "level": "INFO"},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        # rewritten where it is logged, before any handler (also a test's or a tool's) sees it
        "django.request": {"filters": ["table_tokens"]},
        # a wrong Host header is anyone's to send: one warning line on the terminal, no
        # traceback, and not into binokel.log, where a flood of them could rotate the
        # evening's real errors away
        "django.security.DisallowedHost": {
            "handlers": ["refused_host"],
            "filters": ["one_line"],
            "level": "WARNING",
            "propagate": False,
        },
        # the venue's server (operations.serve): a request it could not serve
        "waitress": {
            "handlers": _PROBLEM_HANDLERS,
            "level": "WARNING",
            "filters": ["table_tokens"],
        },
        # "Task queue depth is 2": a request waited for a thread, routine under load (700
        # lines in a 60 s load test would rotate the evening's real errors away)
        "waitress.queue": {"level": "ERROR"},
        # the project's own loggers: binokel.* and the modules' logging.getLogger(__name__)
        **{name: {"handlers": _PROBLEM_HANDLERS, "level": "WARNING"} for name in PROJECT_LOGGERS},
    },
}

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "archive.context_processors.backups",
                "archive.context_processors.publishing",
                "tournament.context_processors.demo",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers (the public standings) run beside a writer (the clerk); a busy
    # timeout and immediate transactions keep "database is locked" away from users.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # Tests use a file too (not Django's shared in-memory database), so that two threads
    # really are two connections with SQLite's own locking, as two clerks are in production.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("DJANGO_TEST_SQLITE")
        or str(Path(tempfile.gettempdir()) / f"binokel-test-{os.getpid()}.sqlite3")
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "de"
LANGUAGES = [("de", "Deutsch"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Content-Security-Policy on every answer, a second line behind escaping (issue 38.9): no
# inline script or style, nothing from another host (the venue has no internet anyway),
# no framing, forms post only to the app.  htmx runs without eval (templates/base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    }
}

# Staff sessions on a shared club laptop and the clerks' phones: they end when the browser
# closes, and after 12 hours at the latest (an evening), not after Django's two weeks.
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_AGE = 12 * 60 * 60

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# One cache per process by default (a laptop with one gunicorn). With REDIS_URL every worker
# and every app server shares one cache, so a saved hand is in all their standings at once.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, answering as an empty cache while Redis is unreachable
            # (restarting, gone) instead of failing every page with a 500
            "BACKEND": "config.cache.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            # several installations may share one Redis: keep their keys apart
            "KEY_PREFIX": os.environ.get("DJANGO_CACHE_PREFIX", "binokel"),
            # a Redis that does not answer costs a request at most this long, not forever
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "binokel",
            # room for every page variant and the throttle's counters, so a burst of new
            # keys does not push a table's counter of wrong codes out (default: 300)
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

# The address phones reach the standings at (the venue command sets the laptop's LAN
# address), for the QR codes; empty: the address the page itself was requested at.
PUBLIC_BASE_URL = os.environ.get("BINOKEL_PUBLIC_URL", "").rstrip("/")
# Automatic backups of the SQLite database (venue mode): at every round close, and shown
# on the director's overview.  Empty: none.
BACKUP_DIR = os.environ.get("BINOKEL_BACKUP_DIR", "")
# Publishing the results to the club's website while the evening runs (archive.publish.live):
# the venue's data folder, where the target and the publisher's status are kept.  Empty
# (a server): no publishing from the web pages; ``manage.py publish_site`` still works.
PUBLISH_DIR = os.environ.get("BINOKEL_PUBLISH_DIR", "")
# Publishing the results to the club's website (archive.publish): the SFTP host keys
# trusted so far (trust on first use), kept outside the database, its backups and exports.
# Default: beside a SQLite database (the venue's data folder), else in the project folder.
PUBLISH_KNOWN_HOSTS = os.environ.get("BINOKEL_PUBLISH_KNOWN_HOSTS") or str(
    (
        Path(DATABASES["default"]["NAME"]).parent
        if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
        else BASE_DIR
    )
    / "veroeffentlichen-serverschluessel"
)

# DJANGO_HTTPS=0: served over plain HTTP on a venue's own network (no TLS proxy), so the
# cookies cannot be "Secure" and there is nothing to redirect to.
HTTPS = os.environ.get("DJANGO_HTTPS", "1") == "1"
if not DEBUG and HTTPS:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = os.environ.get("DJANGO_SECURE_SSL_REDIRECT", "1") == "1"
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "3600"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
