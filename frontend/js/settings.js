// Player settings, remembered per browser, every one off until the player turns it on.
// "After-game analysis" most of all: the rule book promises no solver and no hint, so
// only a player who asks for it hears, of a finished game's replay, whether its deal
// could be won (analysis.js).

const KEY = "halfmoon.settings";
const DEFAULTS = { moveErrors: false, placementHelp: false, analysis: false, sounds: false };

export function loadSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveSettings(settings) {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

/** Binds checkboxes named like the settings (name="moveErrors") to storage. */
export function bindSettings(form, onChange) {
  const settings = loadSettings();
  for (const box of form.querySelectorAll("input[type=checkbox]")) {
    box.checked = Boolean(settings[box.name]);
    box.addEventListener("change", () => {
      settings[box.name] = box.checked;
      saveSettings(settings);
      onChange({ ...settings });
    });
  }
  return { ...settings };
}
