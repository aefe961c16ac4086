// The question asked before a step that cannot be taken back (dialogs.js `ask`):
// only its confirm button agrees, anything else that closes it declines, and the
// focus goes back to the button that asked. A stand-in for <dialog>, as Node has none.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ask } from "../../frontend/js/dialogs.js";

class FakeDialog extends EventTarget {
  constructor() {
    super();
    this.open = false;
    this.confirm = new EventTarget();
  }
  querySelector(selector) {
    assert.equal(selector, "[data-confirm]");
    return this.confirm;
  }
  showModal() {
    this.open = true;
  }
  close() {
    this.open = false;
    this.dispatchEvent(new Event("close"));
  }
}

const opener = () => ({ focused: 0, focus() { this.focused += 1; } });

test("the confirm button agrees, and the focus goes back to the opener", async () => {
  const dialog = new FakeDialog();
  const button = opener();
  const answer = ask(dialog, button);
  assert.equal(dialog.open, true);
  dialog.confirm.dispatchEvent(new Event("click"));
  assert.equal(await answer, true);
  assert.equal(dialog.open, false);
  assert.equal(button.focused, 1);
});

test("closing it otherwise (Escape, the cancel button) declines", async () => {
  const dialog = new FakeDialog();
  const button = opener();
  const answer = ask(dialog, button);
  dialog.close();
  assert.equal(await answer, false);
  assert.equal(button.focused, 1);
});

test("a question declined once does not agree the next time by itself", async () => {
  const dialog = new FakeDialog();
  const first = ask(dialog, opener());
  dialog.close();
  await first;
  const second = ask(dialog, opener());
  dialog.close();
  assert.equal(await second, false);
  dialog.confirm.dispatchEvent(new Event("click")); // a stray click after: nothing listens
  assert.equal(dialog.open, false);
});
