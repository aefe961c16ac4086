// The colour theme: auto (the system's prefers-color-scheme), light or dark, the
// player's choice remembered in this browser. A classic script in the page's head,
// so <html data-theme> is set before the first paint (no flash of the other theme);
// the header's switch (#theme-switch) goes auto → light → dark. site.css draws both themes.
(() => {
  const KEY = "halfmoon.theme";
  const CHOICES = ["auto", "light", "dark"];
  const system = matchMedia("(prefers-color-scheme: light)");
  const chosen = () => {
    try {
      const choice = localStorage.getItem(KEY);
      return CHOICES.includes(choice) ? choice : "auto";
    } catch {
      return "auto";
    }
  };
  const apply = (choice = chosen()) => {
    const theme = choice === "auto" ? (system.matches ? "light" : "dark") : choice;
    document.documentElement.dataset.theme = theme;
    document.documentElement.dataset.themeChoice = choice;
  };
  apply();
  system.addEventListener("change", () => apply());
  const label = (button) => {
    const text = button.dataset[chosen()];
    button.setAttribute("aria-label", text);
    button.title = text;
  };
  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme-switch");
    if (!button) return;
    label(button);
    button.addEventListener("click", () => {
      const next = CHOICES[(CHOICES.indexOf(chosen()) + 1) % CHOICES.length];
      try {
        localStorage.setItem(KEY, next);
      } catch {
        return; // storage refused (private mode): the system's theme stays
      }
      apply(next);
      label(button);
    });
  });
})();
