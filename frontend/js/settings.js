// Player settings, remembered per browser. Both are off until the player turns them on.

const KEY = "halfmoon.settings";
const DEFAULTS = { moveErrors: false, placementHelp: false };

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
