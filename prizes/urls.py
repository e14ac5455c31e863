"""URLs of the prize list: the public list and the director's set-up."""

from django.urls import path

from . import views

app_name = "prizes"

urlpatterns = [
    path("turnier/<int:pk>/preise/", views.prizes, name="list"),
    path("turnier/<int:pk>/preise/festlegen/", views.prize_setup, name="setup"),
]
