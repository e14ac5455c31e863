"""The addresses of the printed documents; each answers with a page saying what to install
where WeasyPrint cannot run (:func:`printing.views.needs_pdf_engine`)."""

from django.urls import path

from . import views
from .views import needs_pdf_engine

app_name = "printing"

urlpatterns = [
    path(
        "turnier/<int:pk>/druck/runde/<int:round_number>/spielliste.pdf",
        needs_pdf_engine(views.score_sheets),
        name="score_sheets",
    ),
    path(
        "turnier/<int:pk>/druck/runde/<int:round_number>/tischplan.pdf",
        needs_pdf_engine(views.table_plan),
        name="table_plan",
    ),
    path(
        "turnier/<int:pk>/druck/runde/<int:round_number>/tischkarten.pdf",
        needs_pdf_engine(views.table_cards),
        name="table_cards",
    ),
    path("turnier/<int:pk>/druck/rangliste.pdf", needs_pdf_engine(views.results), name="results"),
    path("turnier/<int:pk>/druck/preise.pdf", needs_pdf_engine(views.prizes), name="prizes"),
    path("turnier/<int:pk>/druck/regeln.pdf", needs_pdf_engine(views.rules), name="rules"),
    path("turnier/<int:pk>/druck/aushang.pdf", needs_pdf_engine(views.poster), name="poster"),
    path("turnier/<int:pk>/druck/kasse.pdf", needs_pdf_engine(views.cash), name="cash"),
    path(
        "turnier/<int:pk>/druck/namensschilder.pdf",
        needs_pdf_engine(views.badges),
        name="badges",
    ),
    path(
        "turnier/<int:pk>/druck/laufzettel.pdf",
        needs_pdf_engine(views.running_slips),
        name="running_slips",
    ),
    path(
        "serie/<int:pk>/druck/rangliste.pdf",
        needs_pdf_engine(views.series_results),
        name="series_results",
    ),
]
