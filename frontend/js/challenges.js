// The challenges box of the lobby and the profile: a short poll (every 3 s while
// the page is visible) shows the challenges sent to this player, to accept or
// decline, and the ones they sent: waiting, declined, expired, or accepted — then
// the page goes to the race. Each challenge keeps its line (and its buttons' focus)
// from one poll to the next. Why a poll and not a socket: docs/internals.md.

import { postJSON, requestJSON } from "./api.js";
import { errorText } from "./errors.js";
import { gettext, interpolate } from "./i18n.js";

export const POLL_MS = 3000;
const box = document.querySelector("[data-challenges]");
const list = box?.querySelector("[data-challenge-list]");
const errorLine = box?.querySelector("[data-challenge-error]");
const lines = new Map(); // "received:7" -> its <li>
let timer = 0;

const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

function showError(data) {
  errorLine.textContent = errorText(data.error) || gettext("The server had a problem; nothing changed. Please try again.");
  errorLine.hidden = false;
}

async function answer(challenge, how) {
  errorLine.hidden = true;
  const { ok, data } = await postJSON(`/api/challenges/${challenge.id}/${how}/`);
  if (!ok) showError(data);
  if (ok && data.url) return location.assign(data.url);
  poll();
}

function button(text, challenge, how, primary = false) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = primary ? "button primary" : "button";
  element.textContent = text;
  element.dataset.answer = how;
  element.addEventListener("click", () => answer(challenge, how));
  return element;
}

function receivedLine(challenge) {
  const item = document.createElement("li");
  item.className = "challenge";
  item.append(document.createElement("span"));
  const row = document.createElement("span");
  row.className = "button-row";
  row.append(button(gettext("Accept"), challenge, "accept", true), button(gettext("Decline"), challenge, "decline"));
  item.append(row);
  return item;
}

function sentLine(challenge) {
  const item = document.createElement("li");
  item.className = "challenge";
  item.append(document.createElement("span"));
  const row = document.createElement("span");
  row.className = "button-row";
  row.append(button(gettext("Take back"), challenge, "cancel"));
  item.append(row);
  return item;
}

const SENT_TEXTS = {
  open: gettext("Waiting for %(name)s to answer your challenge (%(left)s left)."),
  declined: gettext("%(name)s declined your challenge."),
  expired: gettext("%(name)s did not answer your challenge in time."),
  cancelled: gettext("You took back your challenge to %(name)s."),
  accepted: gettext("%(name)s accepted: to the race!"),
};

function seenAccepted(challenge) {
  const key = `challenge-accepted-${challenge.id}`;
  const seen = sessionStorage.getItem(key);
  sessionStorage.setItem(key, "1");
  return seen;
}

function show(kind, challenge, make, text) {
  const key = `${kind}:${challenge.id}`;
  const item = lines.get(key) ?? make(challenge);
  lines.set(key, item);
  item.firstChild.textContent = text;
  item.dataset.status = challenge.status;
  item.lastChild.hidden = challenge.status !== "open";
  if (!item.isConnected) list.append(item);
  return key;
}

function render({ received, sent }) {
  const kept = new Set();
  const left = (challenge) => clock(challenge.expires_in_s);
  for (const challenge of received) {
    const text = gettext("%(name)s challenges you to a race (%(left)s left).");
    kept.add(show("received", challenge, receivedLine, interpolate(text, { name: challenge.name, left: left(challenge) })));
  }
  for (const challenge of sent) {
    if (challenge.status === "accepted" && challenge.url && !seenAccepted(challenge)) location.assign(challenge.url);
    const text = interpolate(SENT_TEXTS[challenge.status], { name: challenge.name, left: left(challenge) });
    kept.add(show("sent", challenge, sentLine, text));
  }
  for (const [key, item] of lines) {
    if (!kept.has(key)) {
      item.remove();
      lines.delete(key);
    }
  }
  box.hidden = lines.size === 0;
}

async function poll() {
  clearTimeout(timer);
  if (!document.hidden) {
    const { ok, status, data } = await requestJSON("GET", "/api/challenges/");
    if (ok) render(data);
    if (status === 403) return; // signed out meanwhile: no more polls
  }
  timer = setTimeout(poll, POLL_MS);
}

if (box) {
  globalThis.addEventListener("challenges:poll", poll);
  document.addEventListener("visibilitychange", () => document.hidden || poll());
  poll().then(() => {
    document.body.dataset.challengePoll = "ready";
  });
}
