// Staff only, so outside js/ (which every player's service worker precaches).
// The calendar's "Fill the coming four weeks" (game/staff/fill.py): while the run goes
// on, its progress is polled from the status endpoint and shown; once it ends, the
// calendar reloads to show the days it filled.

const form = document.querySelector(".fill-form");
if (form && form.dataset.running === "true") {
  const text = form.querySelector(".fill-status");
  const bar = form.querySelector(".fill-progress");
  const button = form.querySelector("button");
  const poll = async () => {
    let status = null;
    try {
      const answer = await fetch(form.dataset.status, { headers: { Accept: "application/json" } });
      status = answer.ok ? await answer.json() : null;
    } catch {
      status = null; // offline for a moment: ask again
    }
    if (status === null) return setTimeout(poll, 5000);
    text.textContent = status.text;
    bar.max = status.total || 1;
    bar.value = status.settled;
    if (button) button.disabled = status.running;
    if (status.running) return setTimeout(poll, 2000);
    return location.reload();
  };
  setTimeout(poll, 1000);
}
