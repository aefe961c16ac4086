// One websocket to a race room that keeps itself alive: it reconnects with backoff
// (0.5 s, 1 s, 2 s … 10 s), asks for a `sync` when a broadcast `event` was missed,
// and lets the page know when it is connected or not. A network that drops without
// closing the socket (a phone going through a tunnel) is noticed too: every frame
// sent gets an answer, and an idle socket is pinged, so a socket that stays silent
// is given up and replaced. A socket closed with 1012 (the server process is
// restarting, docs/protocol.md) is replaced at once, after a random jitter so that a
// process's players do not all knock on the other one in the same millisecond.

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 10000];
const NO_SUCH_RACE = 4404;
export const RESTART = 1012;
export const RESTART_JITTER_MS = 1000;
const PING_MS = 10000;
const SILENT_MS = 5000;

export class RaceSocket {
  /**
   * @param {string} path       "/ws/race/ROOM/"
   * @param {object} handlers   onMessage(msg), onOpen(), onDown(), onGone()
   */
  constructor(path, handlers) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${path}`;
    this.handlers = handlers;
    this.attempt = 0;
    this.lastEvent = null;
    this.socket = null;
    this.retry = null;
    this.watchdog = null;
    setInterval(() => this.send({ type: "ping" }), PING_MS);
    addEventListener("online", () => {
      if (this.retry !== null) this.connect(); // back online: no need to wait for the backoff
    });
  }

  connect() {
    clearTimeout(this.retry);
    this.retry = null;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    const current = () => socket === this.socket; // a socket given up on stays ignored
    socket.addEventListener("open", () => current() && this.handlers.onOpen?.());
    socket.addEventListener("message", (e) => {
      if (!current()) return;
      this.heard();
      this.receive(e.data);
    });
    socket.addEventListener("close", (e) => current() && this.closed(e.code));
  }

  heard() {
    clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  /** A socket that answered nothing for SILENT_MS after a frame: the network is gone. */
  drop() {
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.closed(1006);
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "state") {
      this.attempt = 0;
      this.lastEvent = msg.event ?? this.lastEvent;
    } else if (typeof msg.event === "number") {
      if (this.lastEvent !== null && msg.event <= this.lastEvent) return; // already in a state
      const gap = this.lastEvent !== null && msg.event > this.lastEvent + 1;
      this.lastEvent = msg.event;
      if (gap) {
        this.send({ type: "sync" });
        return;
      }
    }
    this.handlers.onMessage(msg);
  }

  closed(code) {
    this.heard();
    if (code === NO_SUCH_RACE) {
      this.handlers.onGone?.();
      return;
    }
    this.handlers.onDown?.();
    const delay = retryDelay(code, this.attempt);
    if (code !== RESTART) this.attempt += 1;
    this.retry = setTimeout(() => this.connect(), delay);
  }

  get open() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Sends a frame; false when the socket is down (the caller keeps what it must retry). */
  send(frame) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(frame));
    this.watchdog ??= setTimeout(() => this.drop(), SILENT_MS);
    return true;
  }
}

/**
 * How long to wait before reconnecting after a close with `code`, the `attempt`-th in a
 * row: a restart's close within RESTART_JITTER_MS (random), anything else the backoff.
 */
export function retryDelay(code, attempt, random = Math.random) {
  if (code === RESTART) return Math.floor(random() * RESTART_JITTER_MS);
  return BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
}
