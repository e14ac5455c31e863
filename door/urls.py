from django.urls import path

from . import views

app_name = "door"

urlpatterns = [
    path("turnier/<int:pk>/einlass/", views.door, name="door"),
    path("turnier/<int:pk>/einlass/einstellungen/", views.door_settings, name="settings"),
    path(
        "turnier/<int:pk>/einlass/<int:start_number>/<str:action>/",
        views.door_action,
        name="action",
    ),
    path("turnier/<int:pk>/kasse/", views.cash, name="cash"),
]
