// A profile's rating history as SVG: the rating after each rated race or rated event,
// oldest on the left, with a dot per game (its title says the rating and its change,
// and for an event its title; an event's dot is a square).

import { gettext, interpolate } from "./i18n.js";
import { shownRating, signed } from "./ratings.js";

const NS = "http://www.w3.org/2000/svg";
const PAD = 10;

function element(name, attributes) {
  const el = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  return el;
}

/** Where each race's rating goes in a `width` × `height` box, and the rating range shown
 * (at least 100 points, so a flat history is a flat line in the middle). */
export function ratingPoints(history, width, height) {
  const ratings = history.map((race) => race.rating);
  const middle = (Math.min(...ratings) + Math.max(...ratings)) / 2;
  const span = Math.max(100, Math.max(...ratings) - Math.min(...ratings));
  const low = middle - span / 2;
  const last = Math.max(1, history.length - 1);
  const x = (i) => (history.length === 1 ? width / 2 : PAD + ((width - 2 * PAD) * i) / last);
  const y = (rating) => height - PAD - ((height - 2 * PAD) * (rating - low)) / span;
  return { points: history.map((race, i) => [x(i), y(race.rating)]), low, high: low + span };
}

/** "1512? (+12)", and for a rated event "Event: Saturday arena · 1512? (+12)". */
export function dotTitle(game) {
  const rating = `${shownRating(game.rating, game.provisional)} (${signed(game.change)})`;
  if (!game.event) return rating;
  return `${interpolate(gettext("Event: %(title)s"), { title: game.event.title })} · ${rating}`;
}

export function drawRatingChart(svg, history) {
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  const { points, low, high } = ratingPoints(history, width, height);
  const d = points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  const labels = [high, low].map((rating, i) =>
    element("text", { class: "muted", x: 2, y: i ? height - 2 : 8, "font-size": 7 }),
  );
  labels[0].textContent = String(Math.round(high));
  labels[1].textContent = String(Math.round(low));
  const dots = points.map(([x, y], i) => {
    const dot = history[i].event
      ? element("rect", { class: "rating-dot rating-event", x: (x - 2.5).toFixed(1), y: (y - 2.5).toFixed(1), width: 5, height: 5 })
      : element("circle", { class: "rating-dot", cx: x.toFixed(1), cy: y.toFixed(1), r: 2.5 });
    const title = element("title", {});
    title.textContent = dotTitle(history[i]);
    dot.append(title);
    return dot;
  });
  const line = element("path", { class: "rating-line", d, "vector-effect": "non-scaling-stroke" });
  svg.append(...labels, line, ...dots);
}

if (typeof document !== "undefined") {
  const svg = document.querySelector("#rating-chart");
  const data = document.querySelector("#rating-history");
  if (svg && data) drawRatingChart(svg, JSON.parse(data.textContent));
}
