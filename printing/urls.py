from django.urls import path

from . import views

app_name = "printing"

urlpatterns = [
    path(
        "turnier/<int:pk>/druck/runde/<int:round_number>/spielliste.pdf",
        views.score_sheets,
        name="score_sheets",
    ),
    path(
        "turnier/<int:pk>/druck/runde/<int:round_number>/tischplan.pdf",
        views.table_plan,
        name="table_plan",
    ),
    path(
        "turnier/<int:pk>/druck/runde/<int:round_number>/tischkarten.pdf",
        views.table_cards,
        name="table_cards",
    ),
    path("turnier/<int:pk>/druck/rangliste.pdf", views.results, name="results"),
    path("turnier/<int:pk>/druck/preise.pdf", views.prizes, name="prizes"),
    path("turnier/<int:pk>/druck/regeln.pdf", views.rules, name="rules"),
    path("turnier/<int:pk>/druck/aushang.pdf", views.poster, name="poster"),
    path("serie/<int:pk>/druck/rangliste.pdf", views.series_results, name="series_results"),
]
