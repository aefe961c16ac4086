// Announcements: modal dialogs (blocked, won, standings, new game) and a
// polite live region for short messages (move errors, server errors, "link copied").

export function openDialog(dialog) {
  if (!dialog.open) dialog.showModal();
}

export function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

/** Every [data-close] button closes its dialog. */
export function bindDialogs(root = document) {
  for (const button of root.querySelectorAll("dialog [data-close]")) {
    button.addEventListener("click", () => closeDialog(button.closest("dialog")));
  }
}

/** Shows `text` in the toast for a few seconds (re-announced even if unchanged). */
export function toast(el, text, ms = 2600) {
  clearTimeout(el.timer);
  el.textContent = text;
  el.hidden = false;
  el.classList.remove("show");
  void el.offsetWidth;
  el.classList.add("show");
  el.timer = setTimeout(() => {
    el.classList.remove("show");
    el.hidden = true;
  }, ms);
}
