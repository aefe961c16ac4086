// Django's autocomplete (select2) draws a combobox of its own beside the hidden <select>
// and names it by the text of its empty rendering: nothing, for a row not filled yet.
// Each is named here as its <select> is (game/staff/events.py labels it), also in the
// rows "Add another" makes.

function nameBoxes() {
  for (const select of document.querySelectorAll("select.admin-autocomplete[aria-label]")) {
    const name = select.getAttribute("aria-label");
    const box = select.nextElementSibling?.querySelector('[role="combobox"]');
    if (!box) continue; // select2 sets its own names again as it redraws: named every time
    box.removeAttribute("aria-labelledby");
    box.setAttribute("aria-label", name);
    box.querySelector('[role="textbox"]')?.setAttribute("aria-label", name);
  }
}

// Also when select2 puts its aria-labelledby back (removing an absent one records nothing).
const watched = { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-labelledby"] };
new MutationObserver(nameBoxes).observe(document.documentElement, watched);
document.addEventListener("DOMContentLoaded", nameBoxes);
