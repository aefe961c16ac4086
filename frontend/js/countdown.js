// The daily page: the time left until the next deal (the next UTC midnight),
// and that moment in the player's own time zone, written as the page's language does.

import { language } from "./i18n.js";

const target = document.querySelector("[data-next-deal]");
if (target) {
  const at = new Date(Number(target.dataset.nextDeal));
  const pad = (n) => String(n).padStart(2, "0");
  const local = at.toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
  const show = () => {
    const left = Math.max(0, Math.round((at - Date.now()) / 1000));
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    target.textContent = `${h}:${pad(m)}:${pad(s)} (${local})`;
    target.dateTime = at.toISOString();
  };
  show();
  setInterval(show, 1000);
}
