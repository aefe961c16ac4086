// The table's first-visit tip, "New here? How to play": shown until the player
// dismisses it or follows the link, then never again in this browser (localStorage).

const DONE = "halfmoon.firstTipDone";
const tip = document.querySelector("#first-tip");

function seen() {
  try {
    return localStorage.getItem(DONE) === "1";
  } catch {
    return false; // storage refused (private mode): the tip shows, and hides when dismissed
  }
}

function done() {
  try {
    localStorage.setItem(DONE, "1");
  } catch {
    // not remembered: it shows again next time
  }
  const hadFocus = tip.contains(document.activeElement);
  tip.hidden = true;
  if (hadFocus) document.querySelector("#table .card:not([disabled])")?.focus(); // on to the game
}

if (tip && !seen()) {
  tip.hidden = false;
  for (const el of tip.querySelectorAll("[data-tip-done]")) el.addEventListener("click", done);
}
