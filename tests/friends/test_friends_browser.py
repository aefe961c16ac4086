"""Two players in two browsers: A follows B and challenges B from B's profile; the
invite appears on B's lobby by itself (the poll), B accepts, and both are in the same
private race's lobby."""

import re

import pytest
from playwright.sync_api import expect

from tests.daily.test_ranked_daily import sign_up

pytestmark = pytest.mark.e2e


def test_a_follower_challenges_a_player_who_accepts_from_the_lobby(new_page):
    ada, bob = new_page(), new_page(width=390, height=844)
    sign_up(ada, "ada_friend")
    sign_up(bob, "bob_friend")
    bob.goto("/")  # B waits in the lobby, no challenge yet
    expect(bob.locator("body[data-challenge-poll='ready']")).to_be_attached()
    expect(bob.locator("section[data-challenges]")).to_be_hidden()

    ada.goto("/players/bob_friend/")
    expect(ada.locator("body[data-friend-buttons='ready']")).to_be_attached()
    ada.get_by_role("button", name="Follow").click()
    expect(ada.get_by_role("button", name="Unfollow")).to_be_visible()
    expect(ada.locator(".follow-lists")).to_contain_text("1 follower")
    ada.reload()  # a follower's profile of bob holds their head to head (none raced yet)
    expect(ada.locator(".head-to-head")).to_contain_text("not finished a race against each")
    expect(ada.locator("body[data-friend-buttons='ready']")).to_be_attached()
    ada.get_by_role("button", name="Challenge to a race").click()
    expect(ada.locator("[data-friend-status]")).to_contain_text("Challenge sent to bob_friend")
    expect(ada.locator("section[data-challenges]")).to_contain_text("Waiting for bob_friend")

    invite = bob.locator(".challenge", has_text="ada_friend challenges you to a race")
    expect(invite).to_be_visible()  # no reload: the lobby's poll brought it
    invite.get_by_role("button", name="Accept").click()
    expect(bob).to_have_url(re.compile(r"/race/[A-Z2-9]{6}/$"))
    expect(ada).to_have_url(bob.url)  # A's page follows the accepted challenge
    for page in (ada, bob):
        players = page.locator("#lobby-players")
        expect(players).to_contain_text("ada_friend")
        expect(players).to_contain_text("bob_friend")
