// The after-game analysis on the replay page. The rule book promises no solver and no
// hint, so this is asked of the server only when the player turned "After-game
// analysis" on (settings.js), and the server gives it only for a finished race
// (GET /api/replays/<ROOM>/<player>/analysis/, docs/protocol.md): the deal's verdict,
// the move that lost the game (marked on the scrubber) and one winning line, which
// replay.js steps through on the same table.

import { errorText } from "./errors.js";
import { gettext, interpolate } from "./i18n.js";

const POLL_MS = 1000;
const PATIENCE_MS = 180_000;

/** Refusals said otherwise here than errors.js says them elsewhere. */
const REFUSED = {
  daily_locked: gettext("Today's daily deal is analysed once its day is over."),
};

const VERDICTS = {
  winnable: gettext("This deal could be won."),
  not_winnable: gettext("No one could have won this deal."),
};

/** The server's answer; it solves in the background and says 202 ("computing") until
 * done, so this polls, telling `onWait(seconds)` how long it has waited. */
async function ask(url, onWait) {
  const started = Date.now();
  for (;;) {
    const response = await fetch(url, { credentials: "same-origin" });
    const data = await response.json().catch(() => ({}));
    if (response.status !== 202) return response.ok ? { answer: data } : { error: data.error || {} };
    const waited = Date.now() - started;
    if (waited > PATIENCE_MS) return { text: gettext("The solver is busy. Reload the page to ask again later.") };
    onWait(Math.round(waited / 1000));
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

/** What the analysis says of the game, in sentences. */
function sentences(answer, won) {
  const verdict = VERDICTS[answer.verdict] || gettext("The solver could not decide this deal in time.");
  if (answer.verdict !== "winnable") return [verdict];
  if (answer.winnable_until === null) return [verdict, gettext("The solver could not follow this game in time.")];
  if (answer.lost_step !== null) {
    const lost = gettext("Move %(move)s lost it: the game could be won before it, not after.");
    return [verdict, interpolate(lost, { move: answer.lost_step })];
  }
  if (won) return [verdict, gettext("The game was won: it stayed winnable to the end.")];
  return [verdict, gettext("The game could still be won when it ended.")];
}

/** The analysis panel of the replay page, and the marker it puts on the scrubber. */
export class AnalysisPanel {
  /** `game`: the replay's steps; `on`: {answered(), goTo(step), enterLine(steps), leaveLine(step)}. */
  constructor(root, marker, { url, game, on }) {
    Object.assign(this, { root, marker, url, game, on, answer: null, asked: false });
    this.$ = (selector) => root.querySelector(selector);
    this.$("#go-lost").addEventListener("click", () => {
      if (this.inLine) this.leaveLine();
      this.on.goTo(this.answer.lost_step);
    });
    this.$("#line-enter").addEventListener("click", () => this.enterLine());
    this.$("#line-leave").addEventListener("click", () => this.leaveLine());
  }

  /** The setting turned on or off: asks once, shows or hides everything it says. */
  async turn(on) {
    this.root.hidden = !on;
    this.marker.hidden = !on || this.answer?.lost_step == null;
    if (!on && this.inLine) this.leaveLine();
    document.body.dataset.analysis = on ? (this.answer ? "done" : "asked") : "off";
    if (!on || this.asked) return;
    this.asked = true;
    const progress = this.$("#analysis-progress");
    progress.textContent = gettext("The solver is looking at this game…");
    const wait = gettext("The solver is looking at this game… %(seconds)s s");
    const got = await ask(this.url, (seconds) => {
      progress.textContent = interpolate(wait, { seconds });
    });
    progress.textContent = got.text ?? (got.error ? REFUSED[got.error.code] ?? errorText(got.error) : "");
    progress.hidden = !progress.textContent;
    if (got.answer) this.show(got.answer);
    else if (!this.root.hidden) document.body.dataset.analysis = "refused";
  }

  show(answer) {
    this.answer = answer;
    const won = this.game.at(-1).status === "won";
    this.$("#analysis-verdict").replaceChildren(
      ...sentences(answer, won).map((line) => Object.assign(document.createElement("p"), { textContent: line })),
    );
    const lost = answer.lost_step;
    const goLost = this.$("#go-lost");
    goLost.hidden = lost === null;
    if (lost !== null) {
      goLost.textContent = interpolate(gettext("Go to move %(move)s"), { move: lost });
      this.marker.style.setProperty("--at", String(lost / Math.max(1, this.game.length - 1)));
      this.marker.title = interpolate(gettext("Move %(move)s lost it"), { move: lost });
      this.marker.hidden = this.root.hidden;
    }
    const from = answer.from_step;
    const enter = this.$("#line-enter");
    enter.hidden = !answer.line.length;
    enter.textContent = from
      ? interpolate(gettext("Step through a winning line from move %(move)s"), { move: from })
      : gettext("Step through a winning line from the deal");
    this.$("#analysis-answer").hidden = false;
    if (!this.root.hidden) document.body.dataset.analysis = "done";
    this.on.answered();
  }

  /** The move that lost the game, for the step label. */
  get lostStep() {
    return this.root.hidden ? null : this.answer?.lost_step ?? null;
  }

  get inLine() {
    return document.body.dataset.track === "line";
  }

  enterLine() {
    const from = this.game[this.answer.from_step];
    const line = this.answer.line.map((step) => ({ ...step, at_ms: from.at_ms })); // no one played it
    document.body.dataset.track = "line";
    this.$("#line-enter").hidden = true;
    this.$("#line-leave").hidden = false;
    this.marker.hidden = true;
    this.on.enterLine([from, ...line]);
  }

  leaveLine() {
    document.body.dataset.track = "game";
    this.$("#line-enter").hidden = false;
    this.$("#line-leave").hidden = true;
    this.marker.hidden = this.root.hidden || this.answer.lost_step === null;
    this.on.leaveLine(this.answer.from_step);
  }
}
