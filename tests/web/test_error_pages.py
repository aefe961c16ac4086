"""The error pages of the production server (DEBUG off) in the browser's language:
a page that is not there (404) and a server fault (500)."""

import pytest
from django.test import Client
from django.urls import include, path

NOT_FOUND = {
    "fr": "Cette page n’est pas sur la table",
    "ca": "Aquesta pàgina no és sobre la taula",
    "ro": "Această pagină nu este pe masă",
}


def broken(request):
    raise RuntimeError("a fault the player must not see")


urlpatterns = [path("broken/", broken), path("", include("halfmoon_site.urls"))]
handler404 = "game.web.pages.not_found"


def _headings(lang):
    """The 404 and 500 pages' headings in `lang`, from the project's own catalog."""
    from django.utils import translation

    with translation.override(lang):
        return (
            translation.gettext("This page is not on the table"),
            translation.gettext("Something went wrong"),
        )


@pytest.mark.django_db
@pytest.mark.urls(__name__)
@pytest.mark.parametrize("lang", sorted(NOT_FOUND))
def test_404_and_500_pages_are_in_the_browsers_language_with_debug_off(settings, lang):
    settings.DEBUG = False
    not_found, fault = _headings(lang)
    assert not_found == NOT_FOUND[lang] and fault != "Something went wrong"  # translated
    client = Client(raise_request_exception=False)
    for url, status, heading in (("/no/such/page/", 404, not_found), ("/broken/", 500, fault)):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        page = response.content.decode()
        assert response.status_code == status
        assert f'<html lang="{lang}">' in page and f"<h1>{heading}</h1>" in page, page[:400]
        assert "a fault the player must not see" not in page and "Traceback" not in page
