"""Accounts of the evening's staff without Django's admin: the director's first account on
an empty database, and the director's clerk accounts.

The first account can be made only while the database has no account at all, and only from
the laptop itself (:func:`is_local`): a phone on the hall's Wi-Fi must not be able to make
itself the director of a fresh installation.  ``manage.py leitung_anlegen`` does the same on
the command line.  Clerks are made, reset and switched off by the director
(:func:`create_clerk`, :func:`reset_clerk_password`, :func:`set_clerk_active`); a clerk is
an account in the "Schreiber" group and nothing else, so this page can never make a director
or an admin.
"""

from __future__ import annotations

import ipaddress

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from .roles import CLERK_GROUP, DIRECTOR_GROUP

#: request headers a proxy adds: behind one, REMOTE_ADDR is the proxy's loopback address
PROXY_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


def usable_accounts():
    """Accounts someone can log in with: active, with a usable password (the demo's
    switched-off logins are neither)."""
    return get_user_model().objects.filter(is_active=True).exclude(password__startswith="!")


def has_accounts() -> bool:
    """Whether anyone can log in: an active account with a usable password exists.  A
    data folder whose only accounts are the switched-off demo logins has none, so the
    first-run page makes the director's account there too."""
    return usable_accounts().exists()


def is_local(request) -> bool:
    """Whether ``request`` may use the first-run page because it comes from the laptop
    itself: the deployment offers the page at all (``settings.FIRST_RUN_PAGE``, set by the
    venue command, never on a server), the request did not pass a trusted proxy
    (``request.via_proxy``, :class:`config.middleware.ProxiedClientAddress`), carries no
    proxy header, and its ``REMOTE_ADDR`` is loopback.  Behind a reverse proxy every
    visitor arrives from loopback, so the address alone proves nothing (issue 38: four
    strangers made themselves superusers through the documented nginx)."""
    from django.conf import settings

    if not settings.FIRST_RUN_PAGE or getattr(request, "via_proxy", False):
        return False
    if any(request.META.get(header) for header in PROXY_HEADERS):
        return False
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    # the laptop's own browser on a dual-stack socket ("--bind ::") is ::ffff:127.0.0.1
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def create_director(username: str, password: str, *, first: bool = False):
    """Make a director account: superuser (the admin too) in the "Turnierleitung" group.
    ``password`` must already have passed Django's password validators (the forms check
    it).  With ``first``, refuse (``PermissionDenied``) when any account exists already:
    the first-run page only ever makes the first one.  Raises ``ValidationError`` when the
    name is taken.

    Concurrent first-run submissions make one account at most: a row lock on an empty
    table locks nothing, so the check runs under a lock that exists before the first row
    (PostgreSQL: a transaction-level advisory lock; SQLite: the settings' immediate
    transactions already let one writer in at a time)."""
    with transaction.atomic():
        if first:
            _lock_first_account()
        if first and usable_accounts().exists():
            raise PermissionDenied(_("Es gibt schon ein Konto; bitte einloggen."))
        return _new_account(username, password, DIRECTOR_GROUP, superuser=True)


#: the advisory lock key of the first account (any fixed 64-bit number; "BINOKEL1")
FIRST_ACCOUNT_LOCK = 0x42494E4F4B454C31


def _lock_first_account() -> None:
    """Inside a transaction: wait until no other transaction is making the first account.
    PostgreSQL holds the advisory lock to the end of the transaction; SQLite's immediate
    transaction holds the database's write lock from its start (config/settings.py)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [FIRST_ACCOUNT_LOCK])


def _new_account(username: str, password: str, group: str, superuser: bool = False):
    """A new account in ``group`` (a superuser with ``superuser``); ``ValidationError``
    when the name is taken, whatever its case."""
    users = get_user_model().objects
    if users.filter(username__iexact=username).exists():
        raise ValidationError(_("Diesen Benutzernamen gibt es schon."))
    make = users.create_superuser if superuser else users.create_user
    user = make(username=username, email="", password=password)
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def clerks():
    """The clerk accounts (group "Schreiber", neither staff nor superuser), by name, with
    the tournaments they may enter for."""
    return (
        get_user_model()
        .objects.filter(groups__name=CLERK_GROUP, is_superuser=False, is_staff=False)
        .prefetch_related("clerk_of")
        .order_by("username")
    )


def clerk(pk: int):
    """The clerk account ``pk``; ``PermissionDenied`` for any other account (a director's
    or an admin's is never changed by the clerk page)."""
    user = clerks().filter(pk=pk).first()
    if user is None:
        raise PermissionDenied(_("Das ist kein Schreiber-Konto."))
    return user


@transaction.atomic
def create_clerk(username: str, password: str, tournaments=()):
    """Make a clerk account (group "Schreiber" only) that may enter for ``tournaments``.
    The password must have passed the validators.  Raises ``ValidationError`` when the
    name is taken."""
    user = _new_account(username, password, CLERK_GROUP)
    user.clerk_of.add(*tournaments)
    return user


def reset_clerk_password(pk: int, password: str):
    """Give the clerk ``pk`` a new password (validated by the form).  Raises
    ``PermissionDenied`` for an account that is not a clerk's (a director's or an admin's
    password is never changed here)."""
    user = clerk(pk)
    user.set_password(password)
    user.save(update_fields=["password"])
    return user


def set_clerk_active(pk: int, active: bool):
    """Switch the clerk ``pk`` on or off (an account switched off cannot log in; what it
    entered stays).  Raises ``PermissionDenied`` for an account that is not a clerk's."""
    user = clerk(pk)
    user.is_active = active
    user.save(update_fields=["is_active"])
    return user


@transaction.atomic
def set_clerk_tournaments(pk: int, tournaments) -> None:
    """Let the clerk ``pk`` enter for exactly ``tournaments`` (a list of
    :class:`~tournament.models.Tournament`).  Raises ``PermissionDenied`` as :func:`clerk`."""
    clerk(pk).clerk_of.set(tournaments)
