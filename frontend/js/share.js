// The end dialogs' Share action: the server makes the game's link (a token, never the
// deal's code) and its spoiler-free line of text (game/runs/shares.py); the device's
// share sheet takes them where it has one, else the clipboard.

import { postJSON } from "./api.js";
import { errorText } from "./errors.js";
import { gettext } from "./i18n.js";

/** Asks the server for the game's link and text, once a click asked for it. */
async function shareGame(button) {
  const status = button.closest(".dialog-actions").parentElement.querySelector("[data-share-status]");
  const room = document.querySelector("main[data-room]").dataset.room;
  const { ok, data } = await postJSON(`/api/races/${room}/share/`, {});
  if (!ok) {
    status.textContent = errorText(data.error);
    return;
  }
  status.dataset.url = data.url;
  status.dataset.text = data.text;
  if (navigator.share) {
    try {
      await navigator.share({ title: "Half Moon Race", text: data.text, url: data.url });
      status.textContent = gettext("Shared.");
      return;
    } catch (error) {
      if (error.name === "AbortError") return; // the player closed the share sheet
    }
  }
  await copied(status, `${data.text}\n${data.url}`);
}

async function copied(status, text) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = gettext("Copied: paste it anywhere to share your game.");
  } catch {
    status.textContent = text; // no clipboard here: the text to copy by hand
  }
}

for (const button of document.querySelectorAll("[data-share]")) {
  button.addEventListener("click", () => shareGame(button));
}
