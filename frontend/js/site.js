// Every page: the language switch applies as soon as a language is chosen.

for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.requestSubmit());
}

// The app: installable, and a deal playable offline (install.js).
import { registerServiceWorker } from "./install.js";

registerServiceWorker();
