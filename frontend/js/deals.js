// Deal codes the way players type them, and the way to start a solo game.

const CODE = /^HM1-[NC]-[A-Z]{7}$/;

/** The canonical code, or null when the text is not a deal code. */
export function parseDealCode(text) {
  const code = text.trim().toUpperCase();
  return CODE.test(code) ? code : null;
}

/** A random numbered deal: 7 letters A–Z, each of the 26^7 numbers is a deal. */
export function randomDealCode() {
  const letters = Array.from(crypto.getRandomValues(new Uint8Array(7)), (b) =>
    String.fromCharCode(65 + (b % 26)),
  );
  return `HM1-N-${letters.join("")}`;
}

export const soloUrl = (code) => `/play/${code}/`;

/** Binds a "new game" form: a random deal, or a typed code with a clear error. */
export function bindNewGameForm(form) {
  const input = form.elements.code;
  const error = form.querySelector(".field-error");
  input.addEventListener("input", () => {
    error.hidden = true;
    input.removeAttribute("aria-invalid");
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (event.submitter?.value === "random") {
      location.assign(soloUrl(randomDealCode()));
      return;
    }
    const code = parseDealCode(input.value);
    if (!code) {
      error.hidden = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    location.assign(soloUrl(code));
  });
}
