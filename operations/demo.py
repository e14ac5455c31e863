"""The demo's well-known logins, and switching them off before a real evening.

The README prints the demo logins (``leitung``/``leitung-demo``, a superuser, and
``schreiber``/``schreiber-demo``), so on a real evening they are a door anyone in the hall
can open.  ``scripts/venue --demo`` loads them for a try-out; a later plain
``scripts/venue`` on the same data folder switches them off
(:func:`switch_off_demo_logins`, run by ``manage.py disable_demo_logins``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from tournament.roles import CLERK_GROUP, DIRECTOR_GROUP

#: ``(user name, password, group)`` of each demo login, as the README lists them
DEMO_USERS = (
    ("leitung", "leitung-demo", DIRECTOR_GROUP),
    ("schreiber", "schreiber-demo", CLERK_GROUP),
)


def demo_logins() -> list:
    """The active accounts that still open with a demo password: one of the demo user names
    with its demo password (checked by Django's hasher, about 0.3 s each)."""
    users = get_user_model().objects.filter(
        is_active=True, username__in=[name for name, _, _ in DEMO_USERS]
    )
    passwords = {name: password for name, password, _ in DEMO_USERS}
    return [user for user in users if user.check_password(passwords[user.username])]


@transaction.atomic
def switch_off_demo_logins() -> list[str]:
    """Make every demo login unusable: no password (``set_unusable_password``) and
    inactive; its history and everything it entered stay.  Returns the user names switched
    off, sorted (empty when there were none)."""
    found = demo_logins()
    for user in found:
        user.set_unusable_password()
        user.is_active = False
        user.save(update_fields=["password", "is_active"])
    return sorted(user.username for user in found)
