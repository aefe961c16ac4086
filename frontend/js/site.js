// Every page: the language switch applies as soon as a language is chosen, Escape
// closes an open menu (a <details>), the focus back on its summary, and the app is
// installable with a deal playable offline (install.js).

import { registerServiceWorker } from "./install.js";

for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.requestSubmit());
}

registerServiceWorker();

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || document.querySelector("dialog[open]")) return; // a dialog closes itself
  for (const menu of document.querySelectorAll("details.settings-menu[open]")) {
    menu.open = false;
    menu.querySelector("summary").focus();
  }
});
