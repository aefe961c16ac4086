// The reminders page (/me/reminders/): web push turned on for this device — only on a
// click, and only once the browser's own permission is given — with what to be reminded
// of, saved to the server (/api/push/); turned off again by the other button.
import { postJSON, requestJSON } from "./api.js";
import { errorText } from "./errors.js";
import { gettext } from "./i18n.js";

const form = document.querySelector("[data-reminders]");
const status = form?.querySelector("[data-reminders-status]");
const saveButton = form?.querySelector("[data-reminders-save]");
const offButton = form?.querySelector("[data-reminders-off]");
const KINDS = ["daily", "events", "challenges", "leagues"];

/** The server's key as the Push API takes it. */
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function chosen() {
  const kinds = Object.fromEntries(KINDS.map((kind) => [kind, form.elements[kind].checked]));
  const hour = Number(form.elements.hour.value);
  return { kinds, hour, time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" };
}

function show(settings) {
  for (const kind of KINDS) form.elements[kind].checked = settings[kind];
  form.elements.hour.value = String(settings.hour);
  saveButton.textContent = gettext("Save my reminders");
  offButton.hidden = false;
}

/** The site's service worker (the one every page registers: install.js), ready. */
async function registration() {
  const worker = document.querySelector("link[rel=manifest][data-service-worker]").dataset.serviceWorker;
  return navigator.serviceWorker.register(worker, { scope: "/" }).then(() => navigator.serviceWorker.ready);
}

async function current() {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (!subscription) return null;
  const answer = await requestJSON("GET", `/api/push/?endpoint=${encodeURIComponent(subscription.endpoint)}`);
  if (answer.ok) show(answer.data);
  return subscription;
}

async function turnOn(event) {
  event.preventDefault();
  if ((await Notification.requestPermission()) !== "granted") {
    status.textContent = gettext("Notifications are blocked for this site: allow them in the browser's settings.");
    return;
  }
  const push = (await registration()).pushManager;
  const subscription =
    (await push.getSubscription()) ||
    (await push.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(form.dataset.key) }));
  const answer = await postJSON("/api/push/", { subscription: subscription.toJSON(), ...chosen() });
  if (!answer.ok) {
    status.textContent = errorText(answer.data.error);
    return;
  }
  show(answer.data);
  status.textContent = gettext("Reminders saved for this device.");
}

async function turnOff() {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (subscription) {
    await postJSON("/api/push/forget/", { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  offButton.hidden = true;
  saveButton.textContent = gettext("Turn on reminders on this device");
  status.textContent = gettext("Reminders are off on this device.");
}

if (form) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    saveButton.disabled = true;
    status.textContent = gettext("This browser cannot receive reminders. The calendar below works everywhere.");
  } else {
    form.addEventListener("submit", (event) => turnOn(event).catch(() => (status.textContent = errorText({}))));
    offButton.addEventListener("click", () => turnOff().catch(() => {}));
    current().catch(() => {});
  }
}
