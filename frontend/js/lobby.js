// The lobby: a solo game (random or by code), creating, joining and quick races.

import { postJSON } from "./api.js";
import { bindNewGameForm, parseDealCode } from "./deals.js";
import { errorText } from "./errors.js";
import { gettext } from "./i18n.js";
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

const QUICK_POLL_MS = 1500;

/** POSTs to the race API and goes to the race; true while the quick queue still waits. */
async function enterRace(url, body) {
  codeError.hidden = serverError.hidden = true;
  const name = raceForm.elements.name.value.trim();
  if (name) rememberName(name);
  const { ok, status, data } = await postJSON(url, name ? { ...body, name } : body);
  if (ok && data.url) {
    location.assign(data.url);
    return false;
  }
  if (status === 202) return true;
  show(serverError, errorText(data.error) || gettext("The server could not create the race. Try again."));
  return false;
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
  enterRace("/api/races/", { deal });
});

const quickButton = document.querySelector("#quick-race");
quickButton.addEventListener("click", async () => {
  const status = raceForm.querySelector(".quick-status");
  quickButton.disabled = true;
  show(status);
  while (await enterRace("/api/quick/", {})) {
    await new Promise((resolve) => setTimeout(resolve, QUICK_POLL_MS));
  }
  status.hidden = true;
  quickButton.disabled = false;
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

document.body.dataset.ready = "lobby";
