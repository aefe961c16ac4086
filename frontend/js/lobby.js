// The lobby: a solo game (random or by code), creating, joining and quick races.

import { postJSON, requestJSON } from "./api.js";
import { bindNewGameForm, parseDealCode } from "./deals.js";
import { errorText } from "./errors.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { offerRecorded } from "./quickwait.js";
import { rememberedName, rememberName } from "./room.js";

const ROOM = /^[A-HJKMNP-Z2-9]{6}$/;

function show(el, text) {
  if (text !== undefined) el.textContent = text;
  el.hidden = false;
}

bindNewGameForm(document.querySelector("#solo-form"));

const raceForm = document.querySelector("#race-form");
const codeError = raceForm.querySelector('[data-error="code"]');
const serverError = raceForm.querySelector('[data-error="server"]');
raceForm.elements.name.value = rememberedName();
for (const typing of ["focus", "input"]) {
  raceForm.elements.code.addEventListener(typing, () => {
    raceForm.elements.deal.value = "code";
  });
}

/** POSTs to the race API with the player's name: {url} of the race, {waiting} in the
 * quick queue, or null once the error is shown. */
async function askForRace(url, body) {
  codeError.hidden = serverError.hidden = true;
  const name = raceForm.elements.name.value.trim();
  if (name) rememberName(name);
  const { ok, data } = await postJSON(url, name ? { ...body, name } : body);
  if (ok) return data;
  show(serverError, errorText(data.error) || gettext("The server could not create the race. Try again."));
  return null;
}

raceForm.addEventListener("submit", (event) => {
  event.preventDefault();
  let deal = raceForm.elements.deal.value;
  if (deal === "code") {
    deal = parseDealCode(raceForm.elements.code.value);
    if (!deal) {
      show(codeError);
      raceForm.elements.code.focus();
      return;
    }
  }
  askForRace("/api/races/", { deal }).then((race) => race && location.assign(race.url));
});

// The quick race: a seat counts only while its player keeps asking (about once a
// second); each answer says how many wait, until one gives the race.
const QUICK_POLL_MS = 1000;
const quickButton = document.querySelector("#quick-race");
const quickStatus = document.querySelector("#quick-status");
const quickCount = document.querySelector("#quick-count");
const quickAlone = document.querySelector("#quick-alone");
const quickWindow = document.querySelector("#quick-window");
let polling = 0; // bumped by each click and each cancel: only the latest loop goes on
let asking = Promise.resolve();

/** A rated quick race for an account that chose one (the choice is shown to accounts only). */
const quickBody = () => (raceForm.elements.quick?.value === "rated" ? { rated: true } : {});

/** The ratings a rated seat accepts, widening as it waits: "searching 1400–1600". */
const searching = ([low, high]) => interpolate(gettext("searching %(low)s–%(high)s"), { low, high });

function leaveQueue() {
  polling += 1;
  quickStatus.hidden = quickAlone.hidden = true;
  quickAlone.replaceChildren();
  delete quickAlone.dataset.asked; // queued again, alone again: asked again
  quickButton.disabled = false;
}

quickButton.addEventListener("click", async () => {
  const mine = ++polling;
  quickButton.disabled = true;
  quickCount.textContent = quickWindow.textContent = "";
  show(quickStatus);
  while (mine === polling) {
    asking = askForRace("/api/quick/", quickBody());
    const answer = await asking;
    if (mine !== polling) return; // cancelled while asking
    if (!answer) return leaveQueue();
    if (answer.url) return location.assign(answer.url);
    const waiting = ngettext("%(count)s player waiting", "%(count)s players waiting", answer.waiting);
    quickCount.textContent = interpolate(waiting, { count: answer.waiting });
    // Alone long enough: a recorded game to race meanwhile, the seat kept (quickwait.js).
    if (answer.alone) offerRecorded(quickAlone, () => raceForm.elements.name.value.trim());
    quickWindow.textContent = answer.window ? searching(answer.window) : "";
    await new Promise((resolve) => setTimeout(resolve, QUICK_POLL_MS));
  }
});

document.querySelector("#quick-cancel").addEventListener("click", () => {
  leaveQueue();
  asking.then(() => requestJSON("DELETE", "/api/quick/")); // after a poll still on its way
});

const joinForm = document.querySelector("#join-form");
joinForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = joinForm.elements.room.value.trim();
  const room = (text.match(/\/race\/([^/]+)\/?/)?.[1] || text).toUpperCase();
  if (!ROOM.test(room)) {
    show(joinForm.querySelector(".field-error"));
    return;
  }
  location.assign(`/race/${room}/`);
});

// Back from a quick race too few came to (play.js): straight back into the queue.
const again = new URLSearchParams(location.search).get("quick");
if (again !== null) {
  history.replaceState(null, "", location.pathname);
  const rated = raceForm.querySelector('input[name="quick"][value="rated"]');
  if (again === "rated" && rated) rated.checked = true; // back in the line it was in
  quickButton.click();
}

document.body.dataset.ready = "lobby";
