from django.urls import path

from . import views

app_name = "scoring"

urlpatterns = [
    path("turnier/<int:pk>/", views.standings, name="standings"),
    path("turnier/<int:pk>/rangliste/", views.standings_fragment, name="standings_fragment"),
    path("turnier/<int:pk>/beamer/", views.projector, name="projector"),
    path("turnier/<int:pk>/beitreten/", views.join, name="join"),
    path("turnier/<int:pk>/qr.svg", views.qr_code, name="qr"),
    path("turnier/<int:pk>/spieler/<int:start_number>/", views.player_view, name="player"),
    path("turnier/<int:pk>/erfassung/", views.clerk_overview, name="clerk"),
    path(
        "turnier/<int:pk>/runde/<int:round_number>/tisch/<int:table_number>/",
        views.table_page,
        name="table",
    ),
    path(
        "turnier/<int:pk>/runde/<int:round_number>/tisch/<int:table_number>/pruefen/",
        views.validate_hand,
        name="validate",
    ),
    path(
        "turnier/<int:pk>/runde/<int:round_number>/tisch/<int:table_number>/bestaetigen/",
        views.confirm_entry,
        name="confirm",
    ),
    path(
        "turnier/<int:pk>/runde/<int:round_number>/tisch/<int:table_number>/entscheidung/",
        views.ruling,
        name="ruling",
    ),
    path("turnier/<int:pk>/stichpruefung/", views.play_check, name="play_check"),
    path(
        "turnier/<int:pk>/runde/<int:round_number>/<str:action>/",
        views.round_action,
        name="round_action",
    ),
]
