// Events' hours in the reader's own time zone, and countdowns to them, once a second.
// A countdown marked data-reload reloads its page when it reaches zero (an event's
// page then shows it running, or over).

import { language } from "./i18n.js";

const when = new Intl.DateTimeFormat(language(), {
  weekday: "short",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});

/** "1:02:03" or "2:03": what is left of `ms`, never below zero. */
export function countdownText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

function localTimes() {
  for (const time of document.querySelectorAll("[data-local-time]")) {
    time.textContent = when.format(new Date(time.getAttribute("datetime")));
  }
}

function tick() {
  for (const counter of document.querySelectorAll("[data-countdown]")) {
    const left = Date.parse(counter.dataset.countdown) - Date.now();
    counter.textContent = countdownText(left);
    if (left <= 0 && counter.hasAttribute("data-reload") && !counter.dataset.reloading) {
      counter.dataset.reloading = "1";
      setTimeout(() => location.reload(), 1000);
    }
  }
}

if (typeof document !== "undefined") {
  localTimes();
  tick();
  setInterval(tick, 1000);
}
