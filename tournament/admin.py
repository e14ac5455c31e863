"""Django admin for the director: tournaments, players, registrations, rounds, tables."""

from django.contrib import admin

from .models import Category, Player, Registration, Round, Seat, Series, Table, Tournament


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "status", "seed")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "date",
        "venue",
        "preset",
        "ruleset_fingerprint",
        "rounds",
        "games_per_round",
    )
    readonly_fields = ("preset", "ruleset_fingerprint", "ruleset_json")
    filter_horizontal = ("clerks",)
    inlines = [RoundInline]

    def has_add_permission(self, request) -> bool:
        # a tournament freezes its ruleset when created: use the set-up page (/turnier/neu/)
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("last_name", "first_name", "club", "year_of_birth")
    search_fields = ("last_name", "first_name", "club")


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = (
        "start_number",
        "player",
        "tournament",
        "consent_public",
        "first_round",
        "withdrawn_after_round",
    )
    list_filter = ("tournament", "consent_public")
    search_fields = ("player__last_name", "player__first_name")
    autocomplete_fields = ("player",)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ("registration",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "first_dealer", "scorer")
    list_filter = ("round__tournament",)
    inlines = [SeatInline]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    """Series are created and changed on their own pages (``/serie/neu/``), which check the
    rule; the admin lists them."""

    list_display = ("name", "season", "counting", "best_of", "min_evenings")
    filter_horizontal = ("tournaments",)


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    """Rename or remove a category (created and assigned on the registrations page)."""

    list_display = ("name", "slug", "tournament")
    list_filter = ("tournament",)
    filter_horizontal = ("registrations",)
