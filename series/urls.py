"""URLs of a series: its public standings and the director's set-up pages."""

from django.urls import path

from . import views

app_name = "series"

urlpatterns = [
    path("serie/neu/", views.series_create, name="create"),
    path("serie/<int:pk>/", views.series_page, name="page"),
    path("serie/<int:pk>/bearbeiten/", views.series_edit, name="edit"),
]
