// A quick racer alone in the queue races a recorded game meanwhile and keeps their
// seat. In the lobby, `offerRecorded` shows the game the server offers (once a poll
// said `alone`); on the ghost race's table, this module goes on polling the queue
// and, when someone comes, says so and goes to the quick race (game/lobby/recorded.py).

import { postJSON, requestJSON } from "./api.js";
import { errorText } from "./errors.js";
import { result } from "./ghostoffer.js";
import { gettext, interpolate, ngettext, playerName } from "./i18n.js";

const QUEUED = "halfmoon.quickQueue"; // sessionStorage: the ghost race raced while queued
const POLL_MS = 1000;
const GO_MS = 1000; // long enough to read that the race is on, well inside its countdown

/** Fills `el` with the recorded game the server offers, once; `name()` is the racer's name. */
export async function offerRecorded(el, name) {
  if (el.dataset.asked) return;
  el.dataset.asked = "true";
  const { ok, data } = await requestJSON("GET", "/api/quick/ghost/");
  const intro = note(gettext("Nobody else is here yet. You keep your place in the queue: the quick race starts as soon as someone comes."));
  el.replaceChildren(intro);
  if (ok && data.ghost) {
    intro.textContent = gettext("Nobody else is here yet. Race a recorded game while you wait: you keep your place in the queue, and the quick race starts as soon as someone comes.");
    el.append(choice(data.ghost, name));
  }
  el.hidden = false;
}

function choice(ghost, name) {
  const line = Object.assign(document.createElement("p"), { className: "ghost-choice" });
  const button = Object.assign(document.createElement("button"), { type: "button", className: "button", textContent: gettext("Race this game") });
  const who = interpolate(gettext("Ghost of %(name)s"), { name: playerName(ghost.name) });
  const detail = Object.assign(document.createElement("span"), { className: "ghost-result", textContent: `${who} · ${result({ status: "won", ...ghost })}` });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const chosen = name();
    const { ok, data } = await postJSON("/api/quick/ghost/", chosen ? { ghost: ghost.id, name: chosen } : { ghost: ghost.id });
    if (!ok) {
      button.disabled = false;
      detail.textContent = errorText(data.error);
      return;
    }
    sessionStorage.setItem(QUEUED, data.room);
    location.assign(data.url);
  });
  line.append(button, " ", detail);
  return line;
}

function note(text) {
  return Object.assign(document.createElement("p"), { className: "ghost-note", textContent: text });
}

/** On the ghost race's table: the queue polled in the background, shown above the table. */
function keepQueueing(main) {
  const status = Object.assign(document.createElement("div"), { className: "quick-wait" });
  status.setAttribute("role", "status");
  const text = Object.assign(document.createElement("p"), { textContent: gettext("Looking for other players…") });
  const leave = Object.assign(document.createElement("button"), { type: "button", className: "button", textContent: gettext("Leave the queue") });
  status.append(text, leave);
  main.querySelector(".arena").before(status);
  let queued = true;
  leave.addEventListener("click", () => {
    queued = false;
    sessionStorage.removeItem(QUEUED);
    status.remove();
    requestJSON("DELETE", "/api/quick/");
  });
  (async () => {
    while (queued) {
      const { ok, data } = await postJSON("/api/quick/", {});
      if (!queued) return;
      if (ok && data.url) return go(text, leave, data.url);
      if (ok) {
        const waiting = ngettext("%(count)s player waiting", "%(count)s players waiting", data.waiting);
        text.textContent = `${gettext("Looking for other players…")} ${interpolate(waiting, { count: data.waiting })}`;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
}

function go(text, leave, url) {
  sessionStorage.removeItem(QUEUED);
  text.textContent = gettext("Someone came: your quick race starts now.");
  leave.remove();
  setTimeout(() => location.assign(url), GO_MS);
}

const main = document.querySelector("main.play[data-mode='ghost']");
if (main && sessionStorage.getItem(QUEUED) === main.dataset.room) keepQueueing(main);
