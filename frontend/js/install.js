// The installable app: every page registers the service worker (/sw.js, from
// the manifest link's data-service-worker), which keeps the offline table and the static files.
// Registered once the page has loaded, so it never competes with the page's own files.

export function registerServiceWorker() {
  const link = document.querySelector("link[rel=manifest][data-service-worker]");
  if (!("serviceWorker" in navigator) || !link) return;
  const register = () => navigator.serviceWorker.register(link.dataset.serviceWorker, { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}
