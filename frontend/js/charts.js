// Scores over time as SVG: the replay scrubber's backdrop (one game, by move) and
// the race's chart (every player, by time since the start, with a cursor).

const NS = "http://www.w3.org/2000/svg";
export const MAX_SCORE = 520; // every card gone: 104 cards in pairs and trios
export const PALETTE = ["#f4d58d", "#7fd6ff", "#ff9a8f", "#9be3a5", "#c9a7ff", "#ffb869", "#ff8fcf", "#e8e8e8"];

function element(name, attributes) {
  const el = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  return el;
}

/** The score of each step of one game, from the first move on the left to the last on the right. */
export function drawScoreArea(svg, steps) {
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  const last = Math.max(1, steps.length - 1);
  const points = steps.map((step, i) => [(width * i) / last, height - (height * step.score) / MAX_SCORE]);
  const line = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" L");
  svg.replaceChildren(
    element("path", { class: "score-area", d: `M0,${height} L${line} L${width},${height} Z` }),
    element("path", { class: "score-line", d: `M${line}`, "vector-effect": "non-scaling-stroke" }),
  );
}

/**
 * Every player's score as a step line over the race's time, and a cursor at `atMs`.
 * Returns a function that moves the cursor (and each player's dot) to another moment.
 */
export function drawRaceChart(svg, players, durationMs) {
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  const pad = 6;
  const x = (ms) => pad + ((width - 2 * pad) * ms) / Math.max(1, durationMs);
  const y = (score) => height - pad - ((height - 2 * pad) * score) / MAX_SCORE;
  const grid = [0, 0.25, 0.5, 0.75, 1].map((share) =>
    element("line", { class: "race-grid", x1: pad, x2: width - pad, y1: y(share * MAX_SCORE), y2: y(share * MAX_SCORE) }),
  );
  const lines = players.map((player, i) => {
    let d = `M${x(0)},${y(0)}`;
    for (const step of player.steps.slice(1)) d += ` H${x(step.at_ms).toFixed(1)} V${y(step.score).toFixed(1)}`;
    return element("path", { class: "race-line", d, stroke: PALETTE[i % PALETTE.length] });
  });
  const cursor = element("line", { class: "race-cursor", y1: pad / 2, y2: height - pad / 2 });
  const dots = players.map((_, i) => element("circle", { class: "race-dot", r: 3.2, fill: PALETTE[i % PALETTE.length] }));
  svg.replaceChildren(...grid, ...lines, cursor, ...dots);
  return (atMs, scores) => {
    cursor.setAttribute("x1", x(atMs));
    cursor.setAttribute("x2", x(atMs));
    dots.forEach((dot, i) => {
      dot.setAttribute("cx", x(atMs));
      dot.setAttribute("cy", y(scores[i]));
    });
  };
}
