// Time as the server measures it: the offset between its clock and ours.

export class ServerClock {
  constructor() {
    this.offset = 0;
  }

  /** Learn the server's time from a message's `now` (ms since the epoch). */
  sync(serverNow) {
    if (typeof serverNow === "number") this.offset = serverNow - Date.now();
  }

  now() {
    return Date.now() + this.offset;
  }
}

/** 83000 -> "1:23", 3723000 -> "1:02:03". */
export function formatDuration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}
