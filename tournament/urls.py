from django.urls import path

from . import views

app_name = "tournament"

urlpatterns = [
    path("einrichten/", views.first_run, name="first_run"),
    path("schreiber/", views.clerk_accounts, name="clerks"),
    path("turnier/neu/", views.tournament_create, name="create"),
    path("spieler/", views.players, name="players"),
    path("spieler/suche/", views.player_search, name="player_search"),
    path("turnier/<int:pk>/anmeldungen/", views.registrations, name="registrations"),
    path("turnier/<int:pk>/anmeldungen/import/", views.member_import, name="member_import"),
    path(
        "turnier/<int:pk>/anmeldungen/<int:start_number>/",
        views.registration_edit,
        name="registration_edit",
    ),
    path(
        "turnier/<int:pk>/anmeldungen/<int:start_number>/abmelden/", views.withdraw, name="withdraw"
    ),
    path(
        "turnier/<int:pk>/anmeldungen/<int:start_number>/wieder-anmelden/",
        views.reinstate,
        name="reinstate",
    ),
    path("turnier/<int:pk>/runde/<int:round_number>/plan/", views.round_plan, name="round_plan"),
]
