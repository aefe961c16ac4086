// Half Moon Race's service worker, rendered by game/web/app.py (its config below names
// the static files as the server's storage does). Pages come from the network; with no
// network a /play/<code>/ page is the offline table (a practice game dealt and played
// in the browser), /rules/ the rules as kept, and any other page ("/", /daily/, …) the
// offline page. Static files come from the cache, fetched and kept on first use.
"use strict";

const CONFIG = {{ config|safe }};
const CACHE = `halfmoon-${CONFIG.version}`;
const PLAY = /^\/play\/[^/]+\/?$/; // a deal's page; offline.js says when it cannot deal the code

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(CONFIG.precache))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request, url));
  else if (url.pathname.startsWith(CONFIG.static)) event.respondWith(staticFile(request));
  else if (CONFIG.precache.includes(url.pathname)) event.respondWith(fresh(request));
});

// A reminder (game/reminders/): shown as the server sealed it; a tap opens its page,
// or brings forward a tab of the site already open there.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    return;
  }
  const title = message.title || "Half Moon Race";
  const options = { body: message.body || "", tag: message.tag, data: { url: message.url || "/" } };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((open) => {
      const there = open.find((client) => new URL(client.url).pathname === url.pathname);
      return there ? there.focus() : self.clients.openWindow(url.href);
    }),
  );
});

/** A page from the network; offline, the page kept in its place (all visitors' pages). */
async function page(request, url) {
  try {
    return await fetch(request);
  } catch (error) {
    const kept = await caches.match(keptFor(url.pathname));
    if (kept) return kept;
    throw error;
  }
}

/** What stands in offline for a page: the offline table, a kept page, or the offline page. */
function keptFor(path) {
  if (PLAY.test(path)) return CONFIG.shell;
  return CONFIG.kept[path] || CONFIG.offline;
}

/** A static file from the cache, else from the network and kept. */
async function staticFile(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

/** The translations and the offline table: from the network when it answers (kept), else the cache. */
async function fresh(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await caches.open(CACHE);
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request);
    if (cached) return cached;
    throw error;
  }
}
