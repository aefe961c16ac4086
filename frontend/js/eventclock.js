// Events' hours in the reader's own time zone, and countdowns to them, once a second.
// A countdown marked data-reload reloads its page when it reaches zero (an event's
// page then shows it running, or over).

import { formatDuration } from "./clock.js";
import { language } from "./i18n.js";

const WHEN = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };

/** What is left of `ms`, rounded up to the second ("1:02:03", "2:03"), never below zero. */
export const countdownText = (ms) => formatDuration(Math.ceil(Math.max(0, ms) / 1000) * 1000);

function localTimes() {
  const when = new Intl.DateTimeFormat(language(), WHEN);
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
