// The table's controller: what this client knows (the server's latest state, the tile the
// player chose, a hint asked for), what the player may do, and the intents sent for it.
// The server alone decides what is legal (R8) and what each seat may see (R21); views draw
// from the controller and call its intents, and never keep state of their own.

import { app, el, t, replace, announce, defaultName } from "./core.js";
import { endName } from "./line.js";
import { joinTable } from "./start.js";
import { TableSocket } from "./socket.js";
import { beep } from "./sound.js";
import { tableKeys as keys } from "./input.js";
import { render, fitLines, showError, setConnection, showMissing } from "./views/main.js";
import { refreshPresence } from "./views/common.js";
import { feltBox, feltRoom, updateHintButton } from "./views/board.js";
import { moveAnnouncement } from "./views/log.js";

export class TableCtrl {
  constructor(tableId) {
    this.tableId = tableId;
    this.token = null;
    this.state = null;  // the server's latest state for this connection
    this.selected = null;  // the rack's tile chosen, whose ends light up
    this.hint = null;  // {pending, id, seq} while asked for, then the server's hint
    this.lastError = null;
    this.sent = { width: 0, height: 0 };  // the room for the line the server was told of
    this.typedName = undefined;  // the join form's draft survives redraws
    // What the last drawing showed, so that the next one knows what is new.
    this.prevSeq = -1;
    this.handSeq = -1;  // the seq the rack last showed in this match (-1: not yet)
    this.prevRounds = -1;
    this.prevMatch = -1;
    this.wasMyTurn = false;
    this.localRoundEnd = 0;  // a server without round_end: the round whose end is on screen
    this.afterMove = false;  // a move made from the line or the buttons: focus returns to the rack
    this.movedAt = -1;  // the position (seq) that move was made in
    this.confirmingResign = false;  // the question before resigning is on screen
    this.socket = new TableSocket(() => this.address(), {
      open: () => setConnection(""),
      message: (message) => this.receive(message),
      lost: () => setConnection(t("connection_lost")),
      gone: () => showMissing(this),
    });
  }

  // ---------------------------------------------------------- the connection

  open() {
    const params = new URLSearchParams(window.location.search);
    const token = params.get("token");
    if (token) {
      localStorage.setItem(`dd_token_${this.tableId}`, token);
      window.history.replaceState(null, "", window.location.pathname);
    }
    this.token = localStorage.getItem(`dd_token_${this.tableId}`);
    const root = document.getElementById("app");
    root.dataset.page = "table";
    replace(root, el("p", { class: "loading" }, t("loading")));
    this.socket.connect();
    // A rated match in play: the browser asks before the page goes (leaving resigns, W5).
    window.addEventListener("beforeunload", (event) => { if (this.leavingCosts()) event.preventDefault(); });
  }

  /** The WebSocket's address with this page's language, the room for the line and the seat. */
  address() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const room = feltRoom();
    this.sent = room;
    const params = new URLSearchParams({ lang: app.lang, width: String(room.width), height: String(room.height) });
    if (this.token) params.set("token", this.token);
    return `${scheme}://${window.location.host}/ws/${this.tableId}?${params}`;
  }

  /** An intent to the server; the last error shown goes, as the player has moved on. */
  send(message) {
    if (!this.socket.isOpen) return false;
    showError("");
    return this.socket.send(message);
  }

  receive(message) {
    if (message.type === "state") {
      const before = this.state;
      this.state = message;
      this.redraw();
      announce(moveAnnouncement(before, message, this.names()));
    } else if (message.type === "presence") {
      if (!this.state) return;
      this.state.table.seats.forEach((seat, i) => {
        if (message.connected) seat.connected = message.connected[i];
        if (message.away) seat.away = message.away[i];
      });
      this.state.table.spectators = message.spectators;
      refreshPresence(this);
    } else if (message.type === "hint") {
      this.receiveHint(message);
    } else if (message.type === "error") {
      if (this.hint && this.hint.pending && message.id === this.hint.id) this.hint = null;
      if (message.code && message.code.startsWith("hint")) updateHintButton(this);
      this.lastError = message;
      if (message.code === "unknown_table") return;
      showError(message.message);
      announce(message.message);
    }
  }

  helloAgain() {
    if (!this.socket.isOpen) return;
    const room = feltRoom();
    this.sent = room;
    this.send({ type: "hello", lang: app.lang, width: room.width, height: room.height });
  }

  /** The line's room changed by more than a tile's edge: the server draws it anew. */
  checkRoom() {
    if (!feltBox() || !this.socket.isOpen) return;
    const room = feltRoom();
    if (Math.abs(room.width - this.sent.width) > 24 || Math.abs(room.height - this.sent.height) > 24) {
      this.sent = room;
      this.send({ type: "hello", width: room.width, height: room.height });
    }
  }

  resized() {
    if (!this.state) return;
    fitLines();
    this.checkRoom();
  }

  language() {
    if (this.socket.dead) { showMissing(this); return; }
    if (this.socket.isOpen) this.helloAgain();
    else if (this.state) this.redraw();
  }

  // ---------------------------------------------------------- facts

  names() {
    return this.state.table.seats.map((s) => s.name || t("seat_free"));
  }

  legal() {
    return (this.state && this.state.view && this.state.view.legal_actions) || [];
  }

  /** The ends ``tile`` may go on: "0", "1", or "open" for the first tile. */
  fitsOf(tile) {
    const ends = [];
    for (const action of this.legal()) {
      if (action === tile) ends.push("open");
      else if (action.startsWith(tile + "@")) ends.push(action.slice(tile.length + 1));
    }
    return ends;
  }

  actionFor(tile, end) {
    return end === "open" ? tile : `${tile}@${end}`;
  }

  roundEndShown() {
    const s = this.state;
    if (!s.last_round || s.table.status === "lobby") return false;
    if (s.table.status === "over" && s.result) return false;
    if ("round_end" in s) return Boolean(s.round_end);
    return s.last_round.number === this.localRoundEnd;  // a server without round_end
  }

  isMyTurn() {
    const s = this.state;
    const resigned = ((s.table.leaving || {}).resigned || []).includes(s.you);
    return Boolean(s.view && s.table.status === "playing" && s.you !== null && !resigned
      && s.view.current_player === s.you && !this.roundEndShown() && !(s.table.waiting || []).length);
  }

  hintsAllowed() {
    return Boolean(this.state && this.state.table.hints && this.state.you !== null);
  }

  canAskHint() {
    return this.hintsAllowed() && this.isMyTurn() && !(this.hint && this.hint.pending);
  }

  /** The hint for the position on screen, if one has come. */
  currentHint() {
    const hint = this.hint;
    if (!hint || hint.pending || !this.state || hint.seq !== this.state.seq) return null;
    return hint;
  }

  // ---------------------------------------------------------- intents

  act(action) {
    this.selected = null;
    // A move made from the line's ends (or the place buttons): focus returns to the rack.
    const active = document.activeElement;
    this.afterMove = Boolean(active && active !== document.body
      && (active.closest("#felt") || active.closest("#actions")));
    this.movedAt = this.state ? this.state.seq : -1;
    this.send({ type: "action", action });
  }

  /** A rack tile clicked: chosen (its ends light up), dropped, or played where it fits alone. */
  choose(tile) {
    const ends = this.fitsOf(tile);
    if (this.selected === tile && ends.length === 1) { this.act(this.actionFor(tile, ends[0])); return; }
    this.selected = this.selected === tile ? null : tile;
    this.redraw();
    if (this.selected) {
      const view = this.state.view;
      announce(ends.length
        ? t("selected", { tile, ends: ends.map((end) => endName(view.line.ends, end)).join(t("or")) })
        : t("fits_nowhere", { tile }));
    }
  }

  select(tile) {
    this.selected = tile;
    this.redraw();
  }

  /** The chosen tile on the end ``end`` (a marker clicked), if it fits there. */
  placeAt(end) {
    if (!this.selected) return;
    if (this.fitsOf(this.selected).includes(String(end))) this.act(this.actionFor(this.selected, String(end)));
  }

  /** Ask the server what the analysis would play here; only this connection hears it. */
  askHint() {
    if (!this.canAskHint()) return false;
    const shown = this.hint && this.hint.seq === this.state.seq && !this.hint.pending;
    if (shown) { this.showHint(); return true; }
    const id = this.send({ type: "hint" });
    if (!id) return false;
    this.hint = { pending: true, id, seq: this.state.seq };
    updateHintButton(this);
    return true;
  }

  receiveHint(message) {
    if (!this.state || message.seq !== this.state.seq) return;  // the game moved on
    this.hint = { ...message, pending: false };
    this.showHint();
  }

  /** The hint on the table: its tile chosen (so its ends light up), marked, and read out. */
  showHint() {
    const hint = this.hint;
    if (!hint || hint.pending) return;
    if (hint.tile && this.state.view && this.state.view.hand.includes(hint.tile)) this.selected = hint.tile;
    this.redraw();
    announce(t("hint_text", { text: hint.text }));
  }

  continueRound() {
    if ("round_end" in this.state) this.send({ type: "continue" });
    else { this.localRoundEnd = 0; this.redraw(); }
  }

  /** Show (or drop) the question before resigning: one click never gives a match up. */
  askResign(asking) { this.confirmingResign = asking; this.redraw(); }
  resign() { this.confirmingResign = false; this.send({ type: "resign" }); }
  takeBack() { this.selected = null; this.hint = null; this.send({ type: "take_back" }); }
  /** Whether closing the page would cost the player (a rated match in play: W5). */
  leavingCosts() {
    const s = this.state;
    const leaving = s && s.table.leaving;
    return Boolean(leaving && leaving.away_resigns && s.you !== null && !leaving.resigned.includes(s.you));
  }
    rematch() { this.send({ type: "rematch" }); }
  chat(phrase) { this.send({ type: "chat", phrase }); }
  start() { this.send({ type: "start" }); }
  configureSeat(seat, level) { this.send({ type: "seat", seat, level }); }
  setPublic(value) { this.send({ type: "visibility", public: value }); }
  allowHints(allowed) { this.send({ type: "hints", allowed }); }

  /** Takes a free seat under ``typed`` (or the remembered or default name) and reconnects. */
  async join(typed) {
    if (typed) localStorage.setItem("name", typed);
    const joined = await joinTable(this.tableId, typed || defaultName());
    if (joined.error) { showError(joined.error); return; }
    this.token = joined.token;
    this.socket.restart();
  }

  // ---------------------------------------------------------- drawing

  redraw() {
    const message = this.state;
    if (!message) return;
    // A new match: the log and the round's end start afresh.
    if (message.table.match_number !== this.prevMatch) {
      this.prevMatch = message.table.match_number;
      this.prevRounds = message.rounds.length;
      this.handSeq = -1;
      this.selected = null;
    }
    if (!("round_end" in message) && message.rounds.length > this.prevRounds && this.prevRounds >= 0) {
      this.localRoundEnd = message.last_round ? message.last_round.number : 0;
    }
    this.prevRounds = message.rounds.length;
    const { view } = message;
    if (view && this.selected && !view.hand.includes(this.selected)) this.selected = null;
    if (this.hint && (this.hint.seq !== message.seq || !message.table.hints)) this.hint = null;

    const myTurn = this.isMyTurn();
    render(this);
    // The optional beep says when it is this seat's turn.
    if (myTurn && !this.wasMyTurn) beep();
    this.wasMyTurn = myTurn;
    this.prevSeq = message.seq;
    this.handSeq = message.seq;
    // Only a position after the move ends it: a state of the same position (an answer to
    // a new size, say) may come between the move and the server's answer to it.
    if (this.afterMove && myTurn && message.seq > this.movedAt) this.afterMove = false;
    window.requestAnimationFrame(() => this.checkRoom());
  }
}

// ------------------------------------------------------------ the page's hooks (app.js)

let ctrl = null;  // the table on this page

export function openTable(tableId) {
  ctrl = new TableCtrl(tableId);
  ctrl.open();
}

export function renderTable() {
  if (ctrl) ctrl.redraw();
}

export function tableKeys(event) {
  return ctrl ? keys(ctrl, event) : false;
}

export function tableResized() {
  if (ctrl) ctrl.resized();
}

export function tableLanguage() {
  if (ctrl) ctrl.language();
}
