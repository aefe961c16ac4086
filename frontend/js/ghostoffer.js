// "Race the leader" and "Race your best" on a day's deal: the server says what there
// is to race and whether this player may now; a button starts the ghost race.
// Pages fill their [data-ghost-offer][data-now] at once; the table fills the one in
// a finished game's dialog when it opens (play.js).

import { postJSON, requestJSON } from "./api.js";
import { formatDuration } from "./clock.js";
import { errorText } from "./errors.js";
import { gettext, interpolate, playerName } from "./i18n.js";

/** Fills `el` (data-ghost-offer="YYYY-MM-DD") with the offer for that day's deal, once. */
export async function showGhostOffer(el) {
  if (el.dataset.asked) return;
  el.dataset.asked = "true";
  const url = `/api/daily/${el.dataset.ghostOffer}/ghost/`;
  const { ok, data } = await requestJSON("GET", url);
  el.replaceChildren(...(ok ? offered(data, url) : [note(errorText(data.error))]));
  el.hidden = false;
}

function offered(offer, url) {
  if (offer.closed_today) return [note(gettext("Today's ghosts are raced by accounts once their ranked attempt is over; a past day's, by anyone."))];
  if (!offer.open) return [note(gettext("You can race the leader once your own attempt at today's deal is over."))];
  const parts = [];
  if (offer.leader) {
    parts.push(choice(gettext("Race the leader"), "leader", `${playerName(offer.leader.name)} · ${result(offer.leader)}`, url));
  } else {
    parts.push(note(gettext("Nobody has a ranked result on this deal yet: there is no leader to race.")));
  }
  if (offer.best) parts.push(choice(gettext("Race your best"), "best", result(offer.best), url));
  return parts;
}

/** What a recorded game did: "won in 4:12", else its points. */
export function result({ status, score, time_ms: time }) {
  if (status === "won" && time != null) return interpolate(gettext("won in %(time)s"), { time: formatDuration(time) });
  return interpolate(gettext("%(score)s points"), { score });
}

/** A button that starts the race against `of`, and what that ghost did. */
function choice(label, of, about, url) {
  const line = document.createElement("p");
  line.className = "ghost-choice";
  const button = Object.assign(document.createElement("button"), { type: "button", className: "button", textContent: label });
  button.dataset.ghost = of;
  const detail = Object.assign(document.createElement("span"), { className: "ghost-result", textContent: about });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const { ok, data } = await postJSON(url, { of });
    if (ok) return location.assign(data.url);
    button.disabled = false;
    detail.textContent = errorText(data.error);
  });
  line.append(button, " ", detail);
  return line;
}

function note(text) {
  return Object.assign(document.createElement("p"), { className: "ghost-note", textContent: text });
}

for (const el of document.querySelectorAll("[data-ghost-offer][data-now]")) showGhostOffer(el);
