"""URL configuration: public pages, clerk and director pages, admin, i18n."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from scoring import views as scoring_views
from tournament import views as tournament_views
from tournament.forms import LoginForm

urlpatterns = [
    path("", scoring_views.home, name="home"),
    path("", include("tournament.urls")),
    path("", include("scoring.urls")),
    path("", include("table_entry.urls")),
    path("", include("hall.urls")),
    path("", include("door.urls")),
    path("", include("prizes.urls")),
    path("", include("series.urls")),
    path("", include("archive.urls")),
    path("", include("printing.urls")),
    path("admin/", admin.site.urls),
    # browsers ask for /favicon.ico on every page: the card icon instead of a 404
    path("favicon.ico", tournament_views.favicon),
    path("i18n/", include("django.conf.urls.i18n")),
    path("sprache/<str:code>/", tournament_views.choose_language, name="choose_language"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
]

# 403, 404 and 500 use Django's handlers with templates/403.html, 404.html, 500.html;
# a 400 shows what was wrong (e.g. "?runde=²"), which Django's own handler does not pass on.
handler400 = "tournament.views.bad_request"
