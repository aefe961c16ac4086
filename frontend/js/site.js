// Every page: the language switch applies as soon as a language is chosen, Escape
// closes an open menu (a <details>), the focus back on its summary, the header's menu
// folds on a phone's table (menu.js), and the app is installable with a deal playable
// offline, by the site's own button where the browser offers it (install.js).

import { offerInstall, registerServiceWorker } from "./install.js";
import { foldingMenu } from "./menu.js";

for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.requestSubmit());
}

registerServiceWorker();
offerInstall(document.getElementById("install-app"));

const menuButton = document.querySelector(".menu-button");
if (menuButton) foldingMenu(menuButton, document.getElementById(menuButton.getAttribute("aria-controls")));

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || document.querySelector("dialog[open]")) return; // a dialog closes itself
  for (const menu of document.querySelectorAll("details.settings-menu[open]")) {
    menu.open = false;
    menu.querySelector("summary").focus();
  }
});
