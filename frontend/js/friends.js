// A profile's friend buttons: follow, unfollow, block, unblock, and challenge a
// followed player to a race (the answer shows in the challenges box: challenges.js).

import { requestJSON } from "./api.js";
import { errorText } from "./errors.js";
import { gettext, interpolate } from "./i18n.js";

const panel = document.querySelector("[data-friends]");
const name = panel?.dataset.friends;
const errorLine = panel?.querySelector("[data-friend-error]");
const statusLine = panel?.querySelector("[data-friend-status]");

const ACTIONS = {
  follow: ["POST", "follows"],
  unfollow: ["DELETE", "follows"],
  block: ["POST", "blocks"],
  unblock: ["DELETE", "blocks"],
};

async function act(action, button) {
  errorLine.hidden = true;
  button.disabled = true;
  const path = encodeURIComponent(name);
  const { ok, data } =
    action === "challenge"
      ? await requestJSON("POST", "/api/challenges/", { name })
      : await requestJSON(ACTIONS[action][0], `/api/${ACTIONS[action][1]}/${path}/`);
  button.disabled = false;
  if (!ok) {
    errorLine.textContent = errorText(data.error) || gettext("The server had a problem; nothing changed. Please try again.");
    errorLine.hidden = false;
    return;
  }
  if (action !== "challenge") {
    location.reload(); // the buttons and the lists as the server now has them
    return;
  }
  const sent = gettext("Challenge sent to %(name)s: it waits 2 minutes for an answer.");
  statusLine.textContent = interpolate(sent, { name });
  globalThis.dispatchEvent(new CustomEvent("challenges:poll"));
}

for (const button of panel?.querySelectorAll("[data-friend-action]") ?? []) {
  button.addEventListener("click", () => act(button.dataset.friendAction, button));
}
if (panel) document.body.dataset.friendButtons = "ready";
