// The offline page (game/templates/game/offline.html), kept by the service worker for
// any page it cannot fetch: its practice link deals a new random game at every visit
// (the cached page alone would always name the same code).

import { randomDealCode, soloUrl } from "./deals.js";

const practice = document.getElementById("practice-link");
if (practice) practice.href = soloUrl(randomDealCode());
