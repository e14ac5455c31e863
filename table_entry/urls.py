"""URLs of table entry: the phone pages behind a table's link and the director's list."""

from django.urls import path

from . import views

app_name = "table_entry"

urlpatterns = [
    path("t/<str:token>/", views.table_page, name="page"),
    path("t/<str:token>/pruefen/", views.validate, name="validate"),
    path("t/<str:token>/stimmt/", views.confirm, name="confirm"),
    path("turnier/<int:pk>/tischlinks/", views.director_links, name="director"),
]
