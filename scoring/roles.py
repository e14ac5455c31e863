"""The two staff roles as Django groups, kept in step with the permissions after every
migrate: "Turnierleitung" (director: everything of the tournament and scoring apps, plus
the admin) and "Schreiber" (clerk: enter and correct hands and round totals)."""

from __future__ import annotations

from tournament.roles import CLERK_GROUP, CLERK_PERMISSIONS, DIRECTOR_APPS, DIRECTOR_GROUP

__all__ = ["CLERK_GROUP", "CLERK_PERMISSIONS", "DIRECTOR_GROUP", "ensure_groups"]


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
