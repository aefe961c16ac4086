// The server's JSON API (POST with the CSRF cookie, answers as objects).

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** POSTs `body` as JSON; resolves to {ok, status, data}. */
export async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = {};
  try {
    data = await response.json();
  } catch {
    // an empty or non-JSON answer: the status says enough
  }
  return { ok: response.ok, status: response.status, data };
}
