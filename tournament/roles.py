"""The two staff roles: the names of their Django groups and what each may do.

"Turnierleitung" (director) holds every permission of the ``tournament``, ``scoring`` and
``prizes`` apps (plus the admin for superusers); "Schreiber" (clerk) may enter and correct hands and
round totals.  :func:`ensure_groups` keeps the groups in the database in step with this
after every migrate (connected by the ``scoring`` and ``prizes`` apps, whose permissions it
grants);
:mod:`archive.backup` refuses a backup whose groups grant more than this.
"""

from __future__ import annotations

DIRECTOR_GROUP = "Turnierleitung"
CLERK_GROUP = "Schreiber"
#: the apps whose every permission the director group holds
DIRECTOR_APPS = ("tournament", "scoring", "prizes")
#: ``app_label.codename`` of each permission the clerk group holds
CLERK_PERMISSIONS = (
    "scoring.add_hand",
    "scoring.change_hand",
    "scoring.view_hand",
    "scoring.add_roundtotal",
    "scoring.change_roundtotal",
    "scoring.view_roundtotal",
    "tournament.view_tournament",
    "tournament.view_round",
    "tournament.view_table",
)


def group_may(group: str, permission: str) -> bool:
    """Whether the project's role ``group`` (a group name) holds ``permission``
    (``"app_label.codename"``); ``False`` for any other group name."""
    if group == DIRECTOR_GROUP:
        return permission.split(".", 1)[0] in DIRECTOR_APPS
    if group == CLERK_GROUP:
        return permission in CLERK_PERMISSIONS
    return False


def ensure_groups(**_kwargs) -> None:
    """Create or update both groups with their permissions (a post_migrate handler)."""
    from django.contrib.auth.models import Group, Permission

    director, _ = Group.objects.get_or_create(name=DIRECTOR_GROUP)
    director.permissions.set(Permission.objects.filter(content_type__app_label__in=DIRECTOR_APPS))
    clerk, _ = Group.objects.get_or_create(name=CLERK_GROUP)
    perms = []
    for dotted in CLERK_PERMISSIONS:
        app, codename = dotted.split(".")
        perms.extend(Permission.objects.filter(content_type__app_label=app, codename=codename))
    clerk.permissions.set(perms)
