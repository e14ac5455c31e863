"""Template helpers for the scoring pages."""

from django import template

from tournament.templatetags import binokel_format

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` or ``""`` (for dicts keyed by seat position or field name)."""
    if mapping is None:
        return ""
    try:
        return mapping.get(key, "")
    except AttributeError:
        return ""


@register.filter
def at(sequence, index):
    """``sequence[index]`` or ``""``."""
    try:
        return sequence[index]
    except (IndexError, TypeError, KeyError):
        return ""


# the number and name filters live with the formatting they use (tournament app); the
# scoring templates get them with this library too
register.filter("points", binokel_format.points)
register.filter("euro", binokel_format.euro)
register.filter("ruleset_name", binokel_format.ruleset_name)
