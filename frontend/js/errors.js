// What the server's error codes say to a player, in the page's language: a text
// for every code a client can receive (game/base/errors.py registers them all, and
// tests/web/test_errors.py holds this table to it). The server's own `message`
// is English for developers: it shows only for a code this table does not know.

import { gettext } from "./i18n.js";

/** The rule book's two move errors, shown only with the "Move errors" setting. */
export const MOVE_ERRORS = {
  sum_not_11: gettext("The sum must equal 11"),
  needs_jqk: gettext("Requires a Jack, a Queen and a King"),
};

const RELOAD = gettext("Something went wrong on this page. Please reload it.");

const TEXTS = {
  // a frame or request the server could not read: a stale or broken page
  bad_json: RELOAD,
  too_large: RELOAD,
  unknown_type: RELOAD,
  bad_field: RELOAD,
  no_session: RELOAD,
  rate_limited: gettext("Too many requests at once. Wait a moment, then try again."),
  server_error: gettext("The server had a problem; nothing changed. Please try again."),
  busy: gettext("The server is busy; nothing changed. Please try again in a moment."),
  // the race
  bad_name: gettext("A name has 1 to 24 characters."),
  not_host: gettext("Only the host can do that."),
  race_full: gettext("This race is full."),
  race_blocked: gettext("A block between you and a player in this race keeps you out of it."),
  race_started: gettext("This race has already started. You can watch it."),
  no_players: gettext("Nobody has joined the race yet."),
  not_finished: gettext("The race is not over yet."),
  no_such_race: gettext("This race does not exist."),
  not_a_player: gettext("You are watching this race: only its players can play."),
  not_running: gettext("The game has not started or is already over."),
  not_solo: gettext("Only a solo game can be restarted."),
  // a move or undo the server refused
  not_playable: gettext("That card is no longer there."),
  bad_slot: gettext("There is no such pile or reserve slot."),
  duplicate_slot: gettext("A card cannot be used twice in one move."),
  bad_count: gettext("A move is a pair (two cards) or a trio (three cards)."),
  nothing_to_undo: gettext("There is no move to undo."),
  game_over: gettext("Your game is over."),
  bad_seq: gettext("Catching up with the server…"),
  // the HTTP API
  bad_deal: gettext("That is not a deal code. A code looks like HM1-N-AAAAAAB: HM1, N or C, then 7 letters A–Z."),
  no_such_deal: gettext("No custom deal has this code. Check it, or choose a random deal."),
  no_such_event: gettext("There is no such event."),
  // reminders
  reminders_off: gettext("This server sends no reminders."),
  push_refused: gettext("This browser's push service is not one the site sends reminders to."),
  not_found: gettext("That could not be found. Please try again."),
  daily_locked: gettext("This is today's daily deal: play it once from the Daily deal page. It opens for practice when the day is over."),
  too_many_sockets: gettext("This race is open in too many tabs. Close one, then reload."),
  // ghost races
  attempt_first: gettext("You can race the leader once your own attempt at today's deal is over."),
  no_leader: gettext("Nobody has a ranked result on this deal yet: there is no leader to race."),
  no_best: gettext("You have not finished a game on this deal yet."),
  // the after-game analysis (analysis.js has its own text for daily_locked)
  still_playing: gettext("The analysis waits for the race to be over."),
  // friends: follows, blocks, challenges
  no_such_player: gettext("There is no player with this name."),
  account_needed: gettext("Sign in to follow, block or challenge players."),
  self_follow: gettext("You cannot follow, block or challenge yourself."),
  blocked: gettext("You cannot follow or challenge this player."),
  too_many_follows: gettext("You follow as many players as you can. Unfollow someone first."),
  not_following: gettext("Follow this player before you challenge them."),
  challenge_open: gettext("A challenge between you two is already waiting for an answer."),
  challenge_gone: gettext("This challenge is over: it expired or was answered."),
  // rated quick races
  rated_needs_account: gettext("Rated races are for accounts: log in or sign up to play one."),
  event_over: gettext("This event is over: its standings are final."),
  event_not_started: gettext("This event has not started yet."),
  event_needs_account: gettext("A rated event is played with an account: log in."),
};

/** The player's text for a server error {code, message}: a socket frame, or an API answer's `error`. */
export const errorText = (error) => TEXTS[error?.code] ?? error?.message ?? error?.code ?? "";
