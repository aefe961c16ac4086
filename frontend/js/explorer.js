// The daily deal explorer's position, drawn as the table and the replay draw it
// (table.js): the rule book's arc with its cards. The cards of the move most players
// made next are raised, and those of a next move the pointer or the keyboard is on in
// the list; each card of a next move is a button that follows it (the most played one
// it is part of), so the tree is walked by tap, Enter or Space as well as by link.

import { boardFromState } from "./board.js";
import { language } from "./i18n.js";
import { Table } from "./table.js";

const position = JSON.parse(document.querySelector("#explorer-data").textContent);
const { nexts } = position;
const NOTHING = new Set();

function follow(slot) {
  const next = nexts.find((move) => move.slots.includes(slot));
  if (next) window.location.assign(`?line=${next.path}`);
}

const table = new Table(document.querySelector("#table"), follow);
const board = boardFromState(position);

function show(raised) {
  table.render(board, { lang: language(), selected: raised, dimmed: NOTHING, leaving: NOTHING, idle: !nexts.length });
}

const first = new Set(nexts[0]?.slots ?? []);
show(first);
for (const link of document.querySelectorAll("[data-next-slots]")) {
  const raised = new Set(link.dataset.nextSlots.split(" "));
  for (const type of ["mouseenter", "focus"]) link.addEventListener(type, () => show(raised));
  for (const type of ["mouseleave", "blur"]) link.addEventListener(type, () => show(first));
}
