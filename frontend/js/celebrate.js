// A won game's celebration: the table's cards leap off the felt and bounce down the
// screen, with a little confetti, for under three seconds, drawn on a canvas over the
// won dialog (a popover, so it sits above the modal) that ignores the pointer and is
// hidden from screen readers. Skipped entirely under prefers-reduced-motion; the won
// dialog says the same thing either way.

import { SUIT_SYMBOLS, isRed, rankLabel, suit } from "./cards.js";
import { language } from "./i18n.js";

const LENGTH_MS = 2600;
const CONFETTI = ["#f4d58d", "#d9a93f", "#7fd6ff", "#ff9a8f", "#fffdf6"];
const reducedMotion = () => globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/** Starts the celebration from the cards of `table`; false when motion is reduced. */
export function celebrate(table) {
  if (reducedMotion() || document.querySelector(".celebration")) return false;
  const canvas = document.createElement("canvas");
  canvas.className = "celebration";
  canvas.setAttribute("aria-hidden", "true");
  canvas.setAttribute("popover", "manual");
  document.body.append(canvas);
  document.body.dataset.celebrated = "true"; // stays once the canvas is gone
  canvas.showPopover?.();
  const ratio = globalThis.devicePixelRatio || 1;
  canvas.width = innerWidth * ratio;
  canvas.height = innerHeight * ratio;
  const draw = canvas.getContext("2d");
  draw.scale(ratio, ratio);
  const pieces = [...launches(table), ...confetti()];
  const started = performance.now();
  const frame = (now) => {
    const t = (now - started) / 1000;
    if (t * 1000 > LENGTH_MS) return canvas.remove();
    draw.clearRect(0, 0, innerWidth, innerHeight);
    for (const piece of pieces) piece.draw(draw, t);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return true;
}

/** One card per pile, leaving from where its slot is, in turn, bouncing on the floor. */
function launches(table) {
  const slots = [...table.querySelectorAll(".card")].slice(0, 12);
  const lang = language();
  const sample = ["KH", "QS", "JD", "10C", "AH", "9S", "8D", "7C", "6H", "5S", "4D", "3C"];
  return slots.map((slot, i) => {
    const box = slot.getBoundingClientRect();
    const width = Math.max(28, Math.min(box.width, 80));
    const card = sample[i];
    const path = bouncing(box.left, box.top, (i % 2 ? -1 : 1) * (120 + 25 * i), 0.1 * i);
    return { draw: (draw, t) => drawCard(draw, path(t), width, card, lang) };
  });
}

/** x, y at time t of a card thrown at `speed` px/s, falling and bouncing, from `delay`. */
function bouncing(x0, y0, speed, delay) {
  return (t) => {
    const s = Math.max(0, t - delay);
    let y = y0 - 300 * s + 0.5 * 1800 * s * s;
    const floor = innerHeight - 40;
    if (y > floor) y = floor - Math.abs(Math.sin(s * 6)) * 120 * Math.exp(-s);
    return { x: x0 + speed * s, y };
  };
}

function drawCard(draw, { x, y }, width, card, lang) {
  const height = width * 1.4;
  draw.fillStyle = "#fffdf6";
  draw.strokeStyle = "#b9b19b";
  draw.beginPath();
  draw.roundRect(x, y, width, height, width / 10);
  draw.fill();
  draw.stroke();
  draw.fillStyle = isRed(card) ? "#c4262e" : "#17191c";
  draw.font = `700 ${Math.round(width / 2.6)}px Georgia, serif`;
  draw.fillText(rankLabel(card, lang) + SUIT_SYMBOLS[suit(card)], x + width / 10, y + width / 2.4);
}

function confetti() {
  return Array.from({ length: 70 }, (_, i) => {
    const x0 = Math.random() * innerWidth;
    const fall = 160 + Math.random() * 220;
    const colour = CONFETTI[i % CONFETTI.length];
    return {
      draw(draw, t) {
        draw.fillStyle = colour;
        draw.fillRect(x0 + 30 * Math.sin(t * 3 + i), -20 + fall * t + 40 * t * t, 7, 4);
      },
    };
  });
}
