"""URLs of the archive: spreadsheet downloads of the standings."""

from django.urls import path

from . import views

app_name = "archive"

urlpatterns = [
    path("turnier/<int:pk>/export.<str:fmt>", views.standings_export, name="standings"),
    path("serie/<int:pk>/export.<str:fmt>", views.series_export, name="series"),
    path("turnier/<int:pk>/website.zip", views.site_export, name="site"),
    path("serie/<int:pk>/website.zip", views.series_site_export, name="series_site"),
    path("turnier/<int:pk>/pressebericht/", views.press_report, name="press"),
    path("turnier/<int:pk>/sicherung/", views.backup_now, name="backup_now"),
    path("turnier/<int:pk>/vereinsseite/", views.publish_page, name="publish"),
]
