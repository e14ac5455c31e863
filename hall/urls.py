from django.urls import path

from . import views

app_name = "hall"

urlpatterns = [
    path("turnier/<int:pk>/konsole/", views.console, name="console"),
    path("turnier/<int:pk>/konsole/live/", views.console_live, name="console_live"),
    path("turnier/<int:pk>/konsole/durchsage/", views.announce, name="announce"),
    path(
        "turnier/<int:pk>/konsole/durchsage/<int:announcement_id>/zuruecknehmen/",
        views.withdraw,
        name="withdraw",
    ),
    path("turnier/<int:pk>/konsole/ruf/<int:call_id>/erledigt/", views.call_done, name="call_done"),
    path("turnier/<int:pk>/konsole/uhr/", views.clock, name="clock"),
    path("turnier/<int:pk>/hinweise/", views.notices, name="notices"),
    path("t/<str:token>/hinweise/", views.table_notices, name="table_notices"),
    path("t/<str:token>/rufen/", views.table_call, name="table_call"),
]
