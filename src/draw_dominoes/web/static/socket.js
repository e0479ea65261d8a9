// The table's WebSocket: connects, reconnects with a growing wait, numbers what it sends,
// pings a quiet connection to learn whether it still lives, and hands each message on.

// A connection can die without a close event (a laptop asleep, a network switched): after
// this much silence a ping asks for a pong, and no answer at all counts as a lost connection.
const PING_AFTER = 25000;
const PONG_WAIT = 10000;

export class TableSocket {
  /**
   * @param {() => string} address the URL, asked anew for each connection (size and token change)
   * @param {{open: Function, message: Function, lost: Function, gone: Function}} handlers
   *   ``message`` gets each parsed message but pongs; ``lost`` runs before a reconnection is
   *   tried, ``gone`` when the server says the table does not exist (never reconnected).
   */
  constructor(address, handlers) {
    this.address = address;
    this.handlers = handlers;
    this.ws = null;
    this.retry = 0;
    this.dead = false;
    this.nextId = 1;
    this.timer = null;  // the next ping, or the wait for its answer
  }

  get isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  connect() {
    if (this.dead) return;
    const ws = new WebSocket(this.address());
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.retry = 0;
      this.listen();
      this.handlers.open();
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;  // a socket given up on (after joining, or silent too long)
      this.listen();
      const message = JSON.parse(event.data);
      if (message.type !== "pong") this.handlers.message(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      window.clearTimeout(this.timer);
      if (event.code === 4404) {
        this.dead = true;
        this.handlers.gone();
        return;
      }
      this.reconnectLater(event.code === 4429);
    });
  }

  /** Sends an intent with a fresh id (the server's ok or error names it); false if closed. */
  send(message) {
    if (!this.isOpen) return false;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...message, id }));
    return id;
  }

  /** A new connection at once, the old one closed (after joining: the seat's token). */
  restart() {
    const old = this.ws;
    this.ws = null;
    window.clearTimeout(this.timer);
    if (old) old.close();
    this.connect();
  }

  // 4429 is the server's "too many, wait": then at least ten seconds, more each time.
  reconnectLater(busy) {
    let wait = Math.min(10000, 500 * 2 ** this.retry);
    if (busy) wait = Math.max(wait, 10000 + 5000 * this.retry);
    this.retry = Math.min(this.retry + 1, 6);
    this.handlers.lost();
    window.setTimeout(() => { if (!this.ws) this.connect(); }, wait);
  }

  /** Anything heard: the connection lives, and the next ping waits for more silence. */
  listen() {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.ping(), PING_AFTER);
  }

  ping() {
    if (!this.isOpen) return;
    this.ws.send(JSON.stringify({ type: "ping" }));
    this.timer = window.setTimeout(() => this.drop(), PONG_WAIT);
  }

  /** No pong: the browser still thinks the socket open, so it is left behind, not awaited. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    ws.close();
    this.reconnectLater(false);
  }
}
