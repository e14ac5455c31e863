"""The two staff roles, as data: the names of their Django groups and what each may do.

"Turnierleitung" (director) holds every permission of the ``tournament`` and ``scoring``
apps (plus the admin for superusers); "Schreiber" (clerk) may enter and correct hands and
round totals.  ``scoring.roles.ensure_groups`` keeps the groups in the database in step
with this after every migrate; :mod:`tournament.backup` refuses a backup whose groups grant
more than this.
"""

from __future__ import annotations

DIRECTOR_GROUP = "Turnierleitung"
CLERK_GROUP = "Schreiber"
#: the apps whose every permission the director group holds
DIRECTOR_APPS = ("tournament", "scoring")
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
