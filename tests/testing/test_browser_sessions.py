"""The browser sessions `new_page` lends (tests/support/e2e.py `Sessions`): a session comes
back to the next test as a new visitor's would be, or not at all."""

import pytest
from playwright.sync_api import expect

from tests.support.e2e import Sessions

pytestmark = pytest.mark.e2e

LEFT_BEHIND = """() => {
    document.cookie = "left=behind; path=/";
    localStorage.setItem("left", "behind");
    sessionStorage.setItem("left", "behind");
    return new Promise((done) => {
        const opened = indexedDB.open("left-behind");
        opened.onupgradeneeded = () => opened.result.createObjectStore("things");
        opened.onsuccess = () => { opened.result.close(); done(); };
    });
}"""

FOUND = """async () => ({
    cookie: document.cookie.includes("left="),
    local: localStorage.length,
    session: sessionStorage.length,
    databases: (await indexedDB.databases()).map((d) => d.name),
    online: navigator.onLine,
    width: innerWidth,
    reduced: matchMedia("(prefers-reduced-motion: reduce)").matches,
})"""


@pytest.fixture
def lender(chromium, server, pytestconfig):
    sessions = Sessions(chromium, server.url)
    yield sessions
    sessions.close()


def test_a_session_comes_back_with_nothing_of_the_last_test(lender, server):
    page = lender.lend("en-US", False).new_page()
    page.emulate_media(reduced_motion="reduce")
    page.goto("/rules/")
    page.evaluate(LEFT_BEHIND)
    page.context.grant_permissions(["clipboard-read"], origin=server.url)
    page.context.set_offline(True)
    first = page.context
    lender.take_back()
    assert page.is_closed()

    again = lender.lend("en-US", False)
    assert again is first, "the session was lent again"
    page = again.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/rules/")
    found = page.evaluate(FOUND)
    assert found == {
        "cookie": False,
        "local": 0,
        "session": 0,
        "databases": [],
        "online": True,
        "width": 390,
        "reduced": False,
    }
    asked = "navigator.permissions.query({name: 'clipboard-read'}).then((p) => p.state)"
    assert page.evaluate(asked) == "prompt"


def test_a_session_a_test_changed_for_good_is_closed_not_lent_again(lender):
    changed = lender.lend("en-US", False)
    changed.add_init_script("window.leftBehind = true")
    lender.take_back()
    assert changed.is_closed()

    page = lender.lend("en-US", False).new_page()
    page.goto("/rules/")
    assert page.evaluate("window.leftBehind === undefined")


def test_a_clock_a_test_installed_is_not_lent_again(lender):
    page = lender.lend("en-US", False).new_page()
    page.clock.install()
    lender.take_back()
    assert page.context.is_closed()


def test_two_pages_of_one_test_are_two_visitors(new_page):
    ada, bob = new_page(), new_page()
    assert ada.context is not bob.context
    ada.goto("/rules/")
    ada.evaluate("document.cookie = 'who=ada; path=/'")
    bob.goto("/rules/")
    expect(bob.locator("h1")).to_be_attached()
    assert "who=ada" in ada.evaluate("document.cookie")
    assert "who=ada" not in bob.evaluate("document.cookie")


def test_a_session_is_lent_only_with_the_options_it_was_made_with(lender):
    french = lender.lend("fr", False)
    lender.take_back()
    assert lender.lend("en-US", False) is not french
    assert lender.lend("fr", True) is not french
    assert lender.lend("fr", False) is french
