"""URLs of table entry: the phone pages behind a table's link and the director's list."""

from django.urls import path

from . import table_entry

app_name = "table_entry"

urlpatterns = [
    path("t/<str:token>/", table_entry.table_page, name="page"),
    path("t/<str:token>/pruefen/", table_entry.validate, name="validate"),
    path("t/<str:token>/stimmt/", table_entry.confirm, name="confirm"),
    path("turnier/<int:pk>/tischlinks/", table_entry.director_links, name="director"),
]
