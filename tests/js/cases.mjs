// The shared case files of tests/, read once for the Node tests.

import { readFileSync } from "node:fs";

const load = (name) => JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), "utf8")).cases;

/** tests/rule_cases.json: the verdicts game/engine/rules.py gives too. */
export const RULE_CASES = load("rule_cases.json");

/** tests/tap_cases.json: the taps tests/engine/test_rule_cases_browser.py also runs in the page. */
export const TAP_CASES = load("tap_cases.json");
