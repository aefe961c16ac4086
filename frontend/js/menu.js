// The header's menu on a phone's table: the links, the language and the theme fold
// behind one button, so the header is one line and the felt keeps its height. Where the
// stylesheet shows the button, it opens and closes the menu; Escape, a tap elsewhere or
// the focus leaving it (Tab past its last item) close it. Elsewhere the button is not
// shown and the menu's items sit in the header's row.

/** Wires the disclosure `button` (aria-expanded, aria-controls) to its `menu`. */
export function foldingMenu(button, menu) {
  const show = (open) => {
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("open", open);
  };
  button.addEventListener("click", () => show(button.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("click", (event) => {
    if (!button.contains(event.target) && !menu.contains(event.target)) show(false);
  });
  menu.addEventListener("focusout", (event) => {
    const next = event.relatedTarget;
    if (next && !menu.contains(next) && next !== button) show(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.classList.contains("open")) return;
    show(false);
    button.focus();
  });
}
