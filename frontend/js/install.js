// The installable app: every page registers the service worker (/sw.js, from
// the manifest link's data-service-worker), which keeps the offline table and the static files.
// Registered once the page has loaded, so it never competes with the page's own files.
// The header's "Install the app" shows only while the browser offers to install
// (beforeinstallprompt: Chromium's browsers, when the site qualifies), hidden otherwise.

export function registerServiceWorker() {
  const link = document.querySelector("link[rel=manifest][data-service-worker]");
  if (!("serviceWorker" in navigator) || !link) return;
  const register = () => navigator.serviceWorker.register(link.dataset.serviceWorker, { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

/** The site's own install button, shown while the browser has an install to offer. */
export function offerInstall(button) {
  if (!button) return;
  let offer = null;
  const withdraw = () => {
    offer = null;
    button.hidden = true;
  };
  addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // the browser's own banner gives way to the button
    offer = event;
    button.hidden = false;
  });
  addEventListener("appinstalled", withdraw);
  button.addEventListener("click", () => {
    const shown = offer;
    withdraw(); // an offer is good for one prompt only
    shown?.prompt();
  });
}
