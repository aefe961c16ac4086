// Sounds at the table, off until the player turns them on (the "Sounds" setting,
// settings.js): a soft tap for a selection, a removal, a refusal and a win, made with
// the Web Audio API (no audio file to fetch). The audio context is made on the first
// sound, which always follows a tap, as browsers require.

import { loadSettings } from "./settings.js";

// Each sound: notes [frequency Hz, start s, length s], a wave shape and a loudness.
const SOUNDS = {
  tap: { wave: "sine", gain: 0.08, notes: [[880, 0, 0.05]] },
  removal: { wave: "triangle", gain: 0.12, notes: [[659, 0, 0.08], [988, 0.07, 0.12]] },
  refusal: { wave: "square", gain: 0.04, notes: [[196, 0, 0.09], [165, 0.1, 0.12]] },
  win: { wave: "triangle", gain: 0.12, notes: [[523, 0, 0.14], [659, 0.12, 0.14], [784, 0.24, 0.14], [1047, 0.36, 0.4]] },
};

let context = null;

/** Plays the named sound when the setting is on (and the browser has Web Audio). */
export function sound(name) {
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!loadSettings().sounds || !Context || !SOUNDS[name]) return false;
  context ??= new Context();
  if (context.state === "suspended") context.resume();
  const { wave, gain, notes } = SOUNDS[name];
  const start = context.currentTime + 0.01;
  for (const [frequency, at, length] of notes) {
    const oscillator = context.createOscillator();
    const envelope = context.createGain();
    oscillator.type = wave;
    oscillator.frequency.value = frequency;
    envelope.gain.setValueAtTime(0.0001, start + at);
    envelope.gain.exponentialRampToValueAtTime(gain, start + at + 0.01);
    envelope.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    oscillator.connect(envelope).connect(context.destination);
    oscillator.start(start + at);
    oscillator.stop(start + at + length + 0.02);
  }
  return true;
}
