// The server's JSON API (requests with the CSRF cookie, answers as objects).

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** Sends `body` (if any) as JSON with `method`; resolves to {ok, status, data}. */
export async function requestJSON(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
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

export const postJSON = (url, body) => requestJSON("POST", url, body);
