// Announcements: modal dialogs (blocked, won, standings, new game), the questions
// asked before a step that cannot be taken back (`ask`), and a polite live region
// for short messages (move errors, server errors, "link copied").

export function openDialog(dialog) {
  if (!dialog.open) dialog.showModal();
}

export function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

/**
 * Asks with a modal `dialog`: resolves true once its [data-confirm] button is pressed,
 * false when it closes otherwise ([data-close], Escape). Focus goes into the dialog
 * (its [autofocus] button) and, once it closes, back to `opener`.
 */
export function ask(dialog, opener = document.activeElement) {
  return new Promise((resolve) => {
    let agreed = false;
    const confirm = dialog.querySelector("[data-confirm]");
    const agree = () => {
      agreed = true;
      closeDialog(dialog);
    };
    confirm.addEventListener("click", agree);
    dialog.addEventListener(
      "close",
      () => {
        confirm.removeEventListener("click", agree);
        opener?.focus();
        resolve(agreed);
      },
      { once: true },
    );
    openDialog(dialog);
  });
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
