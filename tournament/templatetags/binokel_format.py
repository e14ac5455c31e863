"""Template filters for numbers, amounts and names as people read them in the active
language (:mod:`tournament.formatting`): ``{% load binokel_format %}`` then
``{{ total|points }}``, ``{{ fee|euro }}``, ``{{ tournament.ruleset|ruleset_name }}``."""

from django import template

from tournament import formatting

register = template.Library()


@register.filter
def points(value):
    """Points grouped from five digits with a real minus sign ("−1720", "12.340"); anything
    that is not an int unchanged (:func:`tournament.formatting.points`)."""
    return formatting.points(value)


@register.filter
def euro(value):
    """An amount in euros as the active language writes it: "0,50 €" / "€0.50"
    (:func:`tournament.formatting.euro`); ``None`` and "" stay empty."""
    if value is None or value == "":
        return ""
    return formatting.euro(value)


@register.filter
def ruleset_name(ruleset):
    """The ruleset's name in the active language (:func:`tournament.formatting.ruleset_name`)."""
    return formatting.ruleset_name(ruleset)
