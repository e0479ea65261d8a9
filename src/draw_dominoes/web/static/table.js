// The table: lobby, play, a round's end and the match's end, all drawn from the server's
// state. The server alone decides what is legal (R8) and what each seat may see (R21).

import {
  app, el, t, replace, tileImage, levelName, levelAbout, announce, focusKey, restoreFocus,
  setTitle, storedName, defaultName, reducedMotion, icon, listNames, strengthName,
} from "./core.js";
import { showLine, fitLine, endName, endValue, describeMoves } from "./line.js";
import { joinTable } from "./start.js";

const table = {
  tableId: null,
  token: null,
  socket: null,
  state: null,
  selected: null,
  retry: 0,
  dead: false,
  lastError: null,
  nextId: 1,
  sent: { width: 0, height: 0 },
  prevSeq: -1,
  prevHand: [],
  prevRounds: -1,
  prevMatch: -1,
  wasMyTurn: false,
  localRoundEnd: 0,
  deadline: 0,
  ticker: null,
  drag: null,
  suppressClick: false,
  afterMove: false,
  hint: null,
};

// ------------------------------------------------------------ the connection

function feltRoom() {
  const box = document.querySelector("#felt .line-box");
  if (box && box.clientWidth > 0) {
    const style = window.getComputedStyle(box);
    return {
      width: Math.round(box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)),
      height: Math.round(box.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)),
    };
  }
  const phone = window.innerWidth < 760;
  return {
    width: Math.round(Math.max(280, Math.min(window.innerWidth - (phone ? 40 : 380), 1100))),
    height: Math.round(Math.max(200, window.innerHeight * (phone ? 0.42 : 0.5))),
  };
}

export function openTable(tableId) {
  table.tableId = tableId;
  const params = new URLSearchParams(window.location.search);
  const token = params.get("token");
  if (token) {
    localStorage.setItem(`dd_token_${tableId}`, token);
    window.history.replaceState(null, "", window.location.pathname);
  }
  table.token = localStorage.getItem(`dd_token_${tableId}`);
  const root = document.getElementById("app");
  root.dataset.page = "table";
  replace(root, el("p", { class: "loading" }, t("loading")));
  connect();
}

function connect() {
  if (table.dead) return;
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const room = feltRoom();
  table.sent = room;
  const params = new URLSearchParams({ lang: app.lang, width: String(room.width), height: String(room.height) });
  if (table.token) params.set("token", table.token);
  const socket = new WebSocket(`${scheme}://${window.location.host}/ws/${table.tableId}?${params}`);
  table.socket = socket;
  socket.addEventListener("open", () => { table.retry = 0; setConnection(""); });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (table.socket !== socket) return;
    table.socket = null;
    if (event.code === 4404) {
      table.dead = true;
      showMissing();
      return;
    }
    let wait = Math.min(10000, 500 * 2 ** table.retry);
    if (event.code === 4429) wait = Math.max(wait, 10000 + 5000 * table.retry);
    table.retry = Math.min(table.retry + 1, 6);
    setConnection(t("connection_lost"));
    window.setTimeout(connect, wait);
  });
}

function receive(message) {
  if (message.type === "state") {
    const before = table.state;
    table.state = message;
    renderTable();
    announce(moveAnnouncement(before, message));
  } else if (message.type === "presence") {
    if (!table.state) return;
    const seats = table.state.table.seats;
    seats.forEach((seat, i) => {
      if (message.connected) seat.connected = message.connected[i];
      if (message.away) seat.away = message.away[i];
    });
    table.state.table.spectators = message.spectators;
    refreshPresence();
  } else if (message.type === "hint") {
    receiveHint(message);
  } else if (message.type === "error") {
    if (table.hint && table.hint.pending && message.id === table.hint.id) table.hint = null;
    if (message.code && message.code.startsWith("hint")) updateHintButton();
    table.lastError = message;
    if (message.code === "unknown_table") return;
    showError(message.message);
    announce(message.message);
  }
}

/** The latest move in words, each end named by its value (the server's text otherwise). */
function moveAnnouncement(before, message) {
  if (!before || message.seq <= before.seq || message.table.match_number !== before.table.match_number) {
    return message.announce;
  }
  const seatNames = names();
  if (message.rounds.length > before.rounds.length) {
    const row = message.rounds[message.rounds.length - 1];
    const moves = describeMoves(row.history || [], seatNames);
    return [moves.length ? moves[moves.length - 1].text : "", row.explanation].join(" ").trim();
  }
  const moves = describeMoves((message.view && message.view.history) || [], seatNames);
  return moves.length ? moves[moves.length - 1].text : message.announce;
}

function send(message) {
  if (!table.socket || table.socket.readyState !== WebSocket.OPEN) return false;
  showError("");
  const id = table.nextId++;
  table.socket.send(JSON.stringify({ ...message, id }));
  return id;
}

// ------------------------------------------------------------ hints

function hintsAllowed() {
  return Boolean(table.state && table.state.table.hints && table.state.you !== null);
}

function canAskHint() {
  return hintsAllowed() && isMyTurn() && !(table.hint && table.hint.pending);
}

/** Ask the server what the analysis would play here; only this connection hears it. */
function askHint() {
  if (!canAskHint()) return false;
  const shown = table.hint && table.hint.seq === table.state.seq && !table.hint.pending;
  if (shown) { showHint(); return true; }
  const id = send({ type: "hint" });
  if (!id) return false;
  table.hint = { pending: true, id, seq: table.state.seq };
  updateHintButton();
  return true;
}

function receiveHint(message) {
  if (!table.state || message.seq !== table.state.seq) return;  // the game moved on
  table.hint = { ...message, pending: false };
  showHint();
}

/** The hint on the table: its tile chosen (so its ends light up), the tile and end marked
 * with an outline and a label, and the sentence on screen and read out. */
function showHint() {
  const hint = table.hint;
  if (!hint || hint.pending) return;
  if (hint.tile && table.state.view && table.state.view.hand.includes(hint.tile)) table.selected = hint.tile;
  renderTable();
  announce(t("hint_text", { text: hint.text }));
}

function currentHint() {
  const hint = table.hint;
  if (!hint || hint.pending || !table.state || hint.seq !== table.state.seq) return null;
  return hint;
}

function updateHintButton() {
  const button = document.getElementById("hint-button");
  if (!button) return;
  const pending = Boolean(table.hint && table.hint.pending);
  button.disabled = !canAskHint();
  button.setAttribute("aria-busy", String(pending));
  button.firstChild.textContent = pending ? t("hint_working") : t("hint_button");
}

function hintTag() {
  return el("span", { class: "hint-tag" }, t("hint_label"));
}

export function helloAgain() {
  if (!table.socket || table.socket.readyState !== WebSocket.OPEN) return;
  const room = feltRoom();
  table.sent = room;
  send({ type: "hello", lang: app.lang, width: room.width, height: room.height });
}

function checkRoom() {
  const box = document.querySelector("#felt .line-box");
  if (!box || !table.socket || table.socket.readyState !== WebSocket.OPEN) return;
  const room = feltRoom();
  if (Math.abs(room.width - table.sent.width) > 24 || Math.abs(room.height - table.sent.height) > 24) {
    table.sent = room;
    send({ type: "hello", width: room.width, height: room.height });
  }
}

function setConnection(text) {
  const node = document.getElementById("connection");
  if (node) { node.textContent = text; node.hidden = !text; }
}

function showError(text) {
  const box = document.getElementById("errors");
  if (box) box.textContent = text || "";
}

function showMissing() {
  const root = document.getElementById("app");
  root.dataset.status = "missing";
  const text = table.lastError && table.lastError.message ? table.lastError.message : t("error_unknown_table");
  replace(root, el("section", { class: "card missing", "aria-labelledby": "missing-heading" },
    el("h1", { id: "missing-heading" }, t("missing_heading")),
    el("p", { id: "errors", role: "alert" }, text),
    el("p", {}, el("a", { href: "/", class: "button primary", id: "home-link" }, t("missing_home")))));
  setTitle(t("missing_heading"));
}

// ------------------------------------------------------------ facts

function names() {
  return table.state.table.seats.map((s) => s.name || t("seat_free"));
}

function legal() {
  return (table.state && table.state.view && table.state.view.legal_actions) || [];
}

function fitsOf(tile) {
  const ends = [];
  for (const action of legal()) {
    if (action === tile) ends.push("open");
    else if (action.startsWith(tile + "@")) ends.push(action.slice(tile.length + 1));
  }
  return ends;
}

function actionFor(tile, end) {
  return end === "open" ? tile : `${tile}@${end}`;
}

function roundEndShown() {
  const s = table.state;
  if (!s.last_round || s.table.status === "lobby") return false;
  if (s.table.status === "over" && s.result) return false;
  if ("round_end" in s) return Boolean(s.round_end);
  return s.last_round.number === table.localRoundEnd;  // a server without round_end
}

function isMyTurn() {
  const s = table.state;
  return Boolean(s.view && s.table.status === "playing" && s.you !== null
    && s.view.current_player === s.you && !roundEndShown() && !(s.table.waiting || []).length);
}

function act(action) {
  table.selected = null;
  // A move made from the line's ends (or the place buttons): focus returns to the rack.
  const active = document.activeElement;
  table.afterMove = Boolean(active && active !== document.body
    && (active.closest("#felt") || active.closest("#actions")));
  send({ type: "action", action });
}

// ------------------------------------------------------------ drawing

export function renderTable() {
  const message = table.state;
  if (!message) return;
  const root = document.getElementById("app");
  // Focus never stays on <body>: a redraw puts it back, or on the next sensible control.
  let focused = focusKey() || (document.activeElement === document.body ? "#no-focus-yet" : null);
  if (table.afterMove && focused && /port-marker|place-|data-action="(draw|pass)"/.test(focused)
      && message.seq > table.prevSeq) {
    focused = "#after-move";  // not the marker again: the rack's tiles, or draw and pass
  }
  const typed = document.getElementById("join-name");
  if (typed) table.typedName = typed.value;
  const { view } = message;
  const status = message.table.status;

  // A new match: the log and the round's end start afresh.
  if (message.table.match_number !== table.prevMatch) {
    table.prevMatch = message.table.match_number;
    table.prevRounds = message.rounds.length;
    table.prevHand = [];
    table.selected = null;
  }
  if (!("round_end" in message) && message.rounds.length > table.prevRounds && table.prevRounds >= 0) {
    table.localRoundEnd = message.last_round ? message.last_round.number : 0;
  }
  table.prevRounds = message.rounds.length;
  if (view && table.selected && !view.hand.includes(table.selected)) table.selected = null;
  if (table.hint && (table.hint.seq !== message.seq || !message.table.hints)) table.hint = null;

  const roundOver = roundEndShown();
  const myTurn = isMyTurn();
  let screen;
  if (status === "lobby") screen = renderLobby(message);
  else if (status === "over" && message.result) screen = renderMatchEnd(message);
  else if (roundOver) screen = renderRoundEnd(message);
  else if (view) screen = renderPlay(message);
  else screen = el("p", {}, t("loading"));
  replace(root, screen);

  root.dataset.page = "table";
  root.dataset.seq = String(message.seq);
  root.dataset.status = status;
  root.dataset.myTurn = String(myTurn);
  if (roundOver) root.dataset.roundOver = "true"; else delete root.dataset.roundOver;

  afterRender(message, { myTurn, roundOver });
  const fallbacks = [
    '[data-action="continue"]', '[data-action="rematch"]', '[data-playable="true"]',
    '[data-action="draw"]', '[data-action="pass"]', "[data-hand-tile]", '[data-action="start"]',
    "#join-name", "#invite-link",
  ];
  const moved = focused && !document.querySelector(focused);
  const rackFirst = ['[data-playable="true"]', '[data-action="draw"]', '[data-action="pass"]', ...fallbacks];
  if (focused === "#after-move" && !myTurn) {
    restoreFocus(focused, ['[data-action="continue"]', '[data-action="rematch"]', "[data-hand-tile]", ...fallbacks]);
  } else {
    restoreFocus(focused, moved && myTurn ? rackFirst : fallbacks);
  }
  // Back to this seat's turn after a move from the line: the first tile that fits.
  if (table.afterMove && myTurn && focusKey() && document.activeElement.matches('[data-hand-tile][data-playable="false"]')) {
    document.querySelector('[data-playable="true"], [data-action="draw"], [data-action="pass"]')?.focus({ preventScroll: true });
  }
  if (table.afterMove && myTurn) table.afterMove = false;
}

function afterRender(message, { myTurn, roundOver }) {
  for (const box of document.querySelectorAll(".line-box")) {
    fitLine(box, window.innerWidth < 600 ? 60 : 76);
  }
  decorateMarkers();
  const log = document.getElementById("log-scroll");
  if (log) log.scrollTop = log.scrollHeight;
  // The tab's title and the optional beep say when it is this seat's turn.
  const status = message.table.status;
  if (myTurn) setTitle(t("title_your_turn"));
  else if (roundOver) setTitle(t("round_over_heading", { number: message.last_round.number }));
  else if (status === "over") setTitle(t("status_over", { number: message.table.match_number }));
  else if (status === "lobby") setTitle(t("status_lobby"));
  else setTitle(t("status_playing", { number: message.table.match_number }));
  if (myTurn && !table.wasMyTurn) beep();
  table.wasMyTurn = myTurn;
  table.prevSeq = message.seq;
  table.prevHand = message.view ? [...message.view.hand] : [];
  // Seconds left at a round's end count down between states.
  window.clearInterval(table.ticker);
  if (message.round_end && typeof message.round_end.seconds_left === "number") {
    table.deadline = Date.now() + message.round_end.seconds_left * 1000;
    table.ticker = window.setInterval(tick, 1000);
  }
  window.requestAnimationFrame(checkRoom);
}

function tick() {
  const node = document.getElementById("seconds-left");
  if (!node) { window.clearInterval(table.ticker); return; }
  const left = Math.max(0, Math.ceil((table.deadline - Date.now()) / 1000));
  node.textContent = t("seconds_left", { seconds: left });
}

function seatNotes(seat, message) {
  const notes = [];
  if (seat.seat === message.you) notes.push(el("span", { class: "badge you" }, t("seat_you")));
  if (seat.seat === message.table.host_seat) notes.push(el("span", { class: "badge host" }, t("seat_host")));
  if (seat.kind === "bot") notes.push(el("span", { class: "badge bot", title: t("seat_bot", { level: levelName(seat.level) }) }, strengthName(seat.level)));
  if (seat.kind === "human" && seat.away) notes.push(el("span", { class: "badge away" }, t("seat_away")));
  else if (seat.kind === "human" && !seat.connected) notes.push(el("span", { class: "badge offline" }, t("seat_offline")));
  return notes;
}

function refreshPresence() {
  const message = table.state;
  for (const seat of message.table.seats) {
    const box = document.querySelector(`#seat-${seat.seat}-info .notes`);
    if (box) replace(box, seatNotes(seat, message));
  }
  const count = document.getElementById("spectator-count");
  if (count) count.textContent = message.table.spectators ? t("spectators", { count: message.table.spectators }) : "";
}

function topBar(message, heading) {
  const { view } = message;
  const scores = view ? el("ol", { class: "scoreboard", "aria-label": t("scores_heading") },
    message.table.seats.map((seat) => el("li", { class: seat.seat === message.you ? "mine" : "" },
      el("span", { class: "sb-name", title: seat.name || null }, seat.seat === message.you ? t("seat_you_short") : shortName(seat)),
      el("span", { class: "sb-score" }, String(view.scores[seat.seat]))))) : null;
  return el("div", { class: "table-bar" },
    el("h1", { id: "status", class: "table-heading" }, heading),
    scores,
    view ? el("p", { class: "target" }, t("target", { target: view.target })) : null,
    view && message.you !== null ? soundButton() : null,
    el("p", { id: "connection", class: "connection", hidden: true, role: "status" }),
    el("p", { id: "errors", role: "alert", class: "errors" }));
}

/** A bot's seat in a chip: "Bot 2" (its strength is on its panel); a person's name as it is. */
function shortName(seat) {
  if (!seat.name) return t("seat_free");
  return seat.kind === "bot" ? seat.name.replace(/\s*\(.*\)\s*$/, "") || seat.name : seat.name;
}

/** A bot's name with its strength in brackets kept apart, so narrow panels may drop it. */
function opponentName(seat) {
  const full = seat.name || t("seat_free");
  const short = shortName(seat);
  if (seat.kind !== "bot" || short === full || !full.startsWith(short)) return el("span", { class: "opp-name" }, full);
  return el("span", { class: "opp-name" }, short, el("span", { class: "name-rest" }, full.slice(short.length)));
}

function avatar(seat) {
  if (seat.kind === "bot") return el("span", { class: "avatar bot", "aria-hidden": "true" }, icon("robot"));
  return el("span", { class: "avatar", "aria-hidden": "true" }, (seat.name || "?").slice(0, 1).toUpperCase());
}

/** The beep on this seat's turn: an icon-sized switch, pressed when the sound is on. */
function soundButton() {
  const on = localStorage.getItem("dd_sound") === "on";
  return el("button", {
    type: "button", class: "button sound icon", "data-focus": "sound", "aria-pressed": String(on),
    "aria-label": t("sound"), title: on ? t("sound_on") : t("sound_off"),
    onclick: () => {
      const now = localStorage.getItem("dd_sound") === "on" ? "off" : "on";
      localStorage.setItem("dd_sound", now);
      const button = document.querySelector('[data-focus="sound"]');
      button.setAttribute("aria-pressed", String(now === "on"));
      button.title = now === "on" ? t("sound_on") : t("sound_off");
      button.replaceChildren(icon(now === "on" ? "sound-on" : "sound-off"));
      if (now === "on") beep();
    },
  }, icon(on ? "sound-on" : "sound-off"));
}

let audio = null;
function beep() {
  if (localStorage.getItem("dd_sound") !== "on") return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 740;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.3);
  } catch { /* no sound where audio is unavailable */ }
}

// ------------------------------------------------------------ the lobby

function renderLobby(message) {
  const { table: info, you } = message;
  const invite = `${window.location.origin}/t/${info.id}`;
  const open = info.seats.filter((s) => s.kind === "open");
  const isHost = you !== null && you === info.host_seat;
  const seatList = el("ul", { id: "seat-list", class: "seat-list" }, info.seats.map((seat) => {
    let control = null;
    if (isHost && seat.kind !== "human") {
      const id = `configure-${seat.seat}`;
      control = el("span", { class: "field inline" },
        el("label", { for: id, class: "visually-hidden" }, t("seat_label", { number: seat.seat + 1 })),
        el("select", { id, onchange: (event) => send({ type: "seat", seat: seat.seat, level: event.target.value || null }) },
          el("option", { value: "", selected: seat.kind === "open" }, t("seat_open")),
          info.bots_offered.map((level) => el("option", { value: level, selected: seat.level === level, title: levelAbout(level) },
            t("seat_bot", { level: levelName(level) })))));
    }
    return el("li", { id: `seat-${seat.seat}-info`, class: `seat-row kind-${seat.kind}` },
      el("span", { class: "avatar", "aria-hidden": "true" }, String(seat.seat + 1)),
      el("span", { class: "seat-name" }, seat.name || t("seat_free")),
      el("span", { class: "notes" }, seatNotes(seat, message)),
      control);
  }));
  const box = el("div", { class: "lobby-page" });
  box.append(topBar(message, t("status_lobby")));
  const card = el("section", { id: "lobby", class: "card lobby", "aria-labelledby": "seats-heading" },
    el("h2", { id: "seats-heading" }, t("seats_heading")), seatList,
    el("p", { id: "spectator-count", class: "muted" }, info.spectators ? t("spectators", { count: info.spectators }) : ""));
  const shareRow = el("div", { class: "invite-row" },
    el("input", { id: "invite-link", readonly: true, value: invite, "aria-labelledby": "invite-label" }),
    el("button", {
      type: "button", class: "button", "data-focus": "copy",
      onclick: async () => {
        const status = document.getElementById("copy-status");
        try {
          await navigator.clipboard.writeText(invite);
          status.textContent = t("copied");
        } catch {
          document.getElementById("invite-link").select();
          status.textContent = t("copy_failed");
        }
      },
    }, t("copy_button")),
    navigator.share ? el("button", {
      type: "button", class: "button", "data-focus": "share",
      onclick: () => navigator.share({ title: t("app_title"), text: t("share_text"), url: invite }).catch(() => {}),
    }, t("share_button")) : null);
  card.append(el("h2", { id: "invite-label" }, t("invite_text")), shareRow,
    el("p", { id: "copy-status", class: "muted", role: "status" }));
  if (you !== null && table.token) {
    card.append(el("details", { class: "seat-link" },
      el("summary", {}, t("your_link_summary")),
      el("p", {}, el("label", { for: "seat-link" }, t("your_link"))),
      el("input", { id: "seat-link", readonly: true, value: `${invite}?token=${table.token}` })));
  }
  if (isHost && "public" in info) {
    card.append(el("p", { class: "check" },
      el("input", {
        type: "checkbox", id: "visibility", "data-focus": "visibility", checked: Boolean(info.public),
        onchange: (event) => send({ type: "visibility", public: event.target.checked }),
      }),
      el("label", { for: "visibility" }, t("public_checkbox"))));
  }
  if (isHost && "hints" in info) {
    card.append(el("p", { class: "check" },
      el("input", {
        type: "checkbox", id: "hints-toggle", "data-focus": "hints-toggle", checked: Boolean(info.hints),
        "aria-describedby": "hints-status",
        onchange: (event) => send({ type: "hints", allowed: event.target.checked }),
      }),
      el("label", { for: "hints-toggle" }, t("hints_checkbox"))));
  }
  if ("hints" in info) {
    card.append(el("p", { id: "hints-status", class: `hints-status${info.hints ? " on" : ""}`, "data-hints": String(Boolean(info.hints)) },
      el("span", { class: "hints-mark", "aria-hidden": "true" }, info.hints ? "\u2713" : "\u2013"), " ",
      t(info.hints ? "hints_allowed" : "hints_not_allowed")));
  }
  if (you === null && open.length) {
    card.append(el("form", { id: "join-form", class: "join", onsubmit: join },
      el("h2", {}, t("join_heading")),
      el("p", { class: "field" }, el("label", { for: "join-name" }, t("your_name")),
        el("input", { id: "join-name", maxlength: 24, value: table.typedName ?? storedName(), placeholder: t("default_name") })),
      el("button", { type: "submit", id: "join-button", class: "button primary" }, t("join_button"))));
  } else if (you === null) {
    card.append(el("p", { id: "spectating" }, t("spectating")));
  }
  if (isHost) {
    card.append(el("p", {}, el("button", {
      id: "start-button", type: "button", class: "button primary big", "data-action": "start",
      disabled: open.length > 0, onclick: () => send({ type: "start" }),
    }, t("start_button"))));
    if (open.length) card.append(el("p", { class: "muted" }, t("waiting_seats")));
  } else if (you !== null) {
    card.append(el("p", { class: "muted" }, t("waiting_host")));
  }
  box.append(card);
  return box;
}

async function join(event) {
  event.preventDefault();
  const typed = document.getElementById("join-name").value.trim();
  if (typed) localStorage.setItem("name", typed);
  const joined = await joinTable(table.tableId, typed || defaultName());
  if (joined.error) { showError(joined.error); return; }
  table.token = joined.token;
  const old = table.socket;
  table.socket = null;
  if (old) old.close();
  connect();
}

// ------------------------------------------------------------ play

function lastActions(message) {
  const moves = describeMoves(message.view.history || [], names());
  const last = {};
  for (const move of moves) last[move.seat] = move;
  return last;
}

function opponentPositions(message) {
  const players = message.table.players;
  const me = message.you === null ? 0 : message.you;
  const others = [];
  for (let i = 1; i < players; i += 1) others.push((me + i) % players);
  if (message.you === null) others.unshift(me);
  const places = { 1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"], 4: ["left", "top", "top", "right"] }[others.length];
  return others.map((seat, i) => ({ seat, place: places[i] }));
}

function renderOpponent(message, seat, place, last) {
  const info = message.table.seats[seat];
  const { view } = message;
  const count = view.hand_sizes[seat];
  const toMove = message.table.status === "playing" && view.current_player === seat;
  const shown = Math.min(count, 12);
  const doing = toMove ? el("p", { class: "opp-status thinking" }, t("thinking"))
    : el("p", { class: "opp-status" }, last[seat] ? last[seat].text : "\u00a0");
  return el("section", {
    id: `seat-${seat}-info`, class: `opponent place-${place}${toMove ? " to-move" : ""}`,
    "aria-label": info.name || t("seat_free"),
  },
  el("div", { class: "opp-head" },
    avatar(info),
    opponentName(info),
    el("span", { class: "opp-score", title: t("scores_heading") }, t("seat_score", { score: view.scores[seat] }))),
  el("p", { class: "notes" }, seatNotes(info, message)),
  el("div", { class: "backs", "aria-label": t("tiles_count", { count }), role: "img" },
    Array.from({ length: shown }, () => el("span", { class: "back" })),
    count > shown ? el("span", { class: "more" }, `+${count - shown}`) : null),
  doing);
}

function renderPlay(message) {
  const { view, you } = message;
  const myTurn = isMyTurn();
  const roundNumber = message.rounds.length + 1;
  const wrap = el("div", { class: "play-page" });
  wrap.append(topBar(message, t("round_heading", { number: roundNumber, match: message.table.match_number })));
  const grid = el("div", { class: `table-top players-${message.table.players}${you === null ? " watching" : ""}` });
  const last = lastActions(message);

  // DOM order is tab order: the rack first, then the line's markers, then draw and pass.
  if (you !== null) grid.append(renderRack(message, myTurn));
  const felt = el("section", { id: "felt", class: "felt", "aria-labelledby": "line-heading" },
    el("h2", { id: "line-heading", class: "visually-hidden" }, t("line_heading")));
  const lineBox = el("div", { id: "line", class: "line line-box" });
  const seqGrew = message.seq > table.prevSeq && table.prevSeq >= 0;
  showLine(lineBox, message.line_svg, message.line_description, { fresh: seqGrew && !reducedMotion() });
  felt.append(lineBox);
  if (!view.line.placements.length) {
    felt.append(el("p", { class: "open-hint", "aria-hidden": "true" },
      myTurn ? t("open_hint_you") : t("open_hint")));
  }
  felt.append(renderPile(view));
  const waiting = (message.table.waiting || []).filter((seat) => seat !== you);
  if (waiting.length) {
    const left = message.table.waiting_seconds_left;
    felt.append(el("p", { id: "waiting-for", class: "felt-banner", role: "status" },
      t("waiting_for", { names: waiting.map((seat) => names()[seat]).join(", ") }),
      typeof left === "number" ? " · " + t("seconds_left", { seconds: Math.ceil(left) }) : ""));
  }
  grid.append(felt);
  if (you !== null) grid.append(renderActions(message, myTurn));
  for (const { seat, place } of opponentPositions(message)) {
    grid.append(renderOpponent(message, seat, place, last));
  }
  wrap.append(grid);
  if (you === null) wrap.append(el("p", { id: "spectating", class: "muted" }, t("spectating")));
  wrap.append(renderBelow(message));
  return wrap;
}

function renderPile(view) {
  const stack = Math.min(view.boneyard_size, 4);
  return el("div", { id: "boneyard", class: "pile", role: "group", "aria-label": t("boneyard", { size: view.boneyard_size, drawable: view.drawable }) },
    el("div", { class: "pile-stack", "aria-hidden": "true" }, Array.from({ length: stack }, () => el("span", { class: "back" }))),
    el("p", { class: "pile-text", "aria-hidden": "true" },
      el("strong", {}, String(view.boneyard_size)), " ", t("pile_left"),
      el("span", { class: "pile-sep" }, " · "), el("br"), t("pile_drawable", { drawable: view.drawable })));
}

function renderRack(message, myTurn) {
  const { view } = message;
  const info = message.table.seats[message.you];
  const turnText = myTurn ? t("your_turn") : t("turn_of", { name: names()[view.current_player] });
  const fresh = new Set(view.hand.filter((tile) => table.prevHand.length && !table.prevHand.includes(tile)));
  const hint = currentHint();
  const rack = el("section", { id: "rack", class: `rack${myTurn ? " my-turn" : ""}`, "aria-labelledby": "hand-heading" },
    el("div", { class: "rack-head", id: `seat-${message.you}-info` },
      el("h2", { id: "hand-heading" }, t("hand_label")),
      el("span", { class: "rack-name" }, info.name),
      el("span", { class: "opp-score" }, t("seat_score", { score: view.scores[message.you] })),
      el("p", { id: "turn", class: myTurn ? "turn my-turn" : "turn", role: "status" }, turnText)));
  const hand = el("div", { id: "hand", class: "hand", role: "group", "aria-labelledby": "hand-heading" });
  for (const tile of view.hand) {
    const ends = fitsOf(tile);
    const playable = ends.length > 0;
    const selected = table.selected === tile;
    const hinted = Boolean(hint && hint.tile === tile);
    const label = playable ? t("tile_playable", { tile }) : tile;
    const button = el("button", {
      type: "button",
      class: `rack-tile${playable ? " playable" : ""}${selected ? " selected" : ""}${hinted ? " hinted" : ""}${fresh.has(tile) && !reducedMotion() ? " arrive" : ""}`,
      "data-hand-tile": tile,
      "data-playable": String(playable),
      "data-hint": hinted ? "true" : null,
      "aria-pressed": String(selected),
      "aria-label": hinted ? t("hint_tile_label", { tile: label }) : label,
      onclick: () => { if (!table.suppressClick) choose(tile); },
      onkeydown: (event) => rackKeys(event, tile),
      onpointerdown: (event) => dragStart(event, tile),
    }, tileImage(tile), hinted ? hintTag() : null);
    hand.append(button);
  }
  if (!view.hand.length) hand.append(el("p", { class: "muted" }, t("hand_empty")));
  rack.append(hand);
  return rack;
}

function renderActions(message, myTurn) {
  const { view } = message;
  const actions = legal();
  const hint = currentHint();
  const bar = el("div", { id: "actions", class: "actions" });
  if (table.selected && view.hand.includes(table.selected)) {
    for (const end of fitsOf(table.selected)) {
      const label = end === "open" ? t("place_open", { tile: table.selected })
        : t("place_on", { end: endName(view.line.ends, end) });
      const hinted = Boolean(hint && hint.tile === table.selected && hint.end === end);
      bar.append(el("button", {
        type: "button", class: `button place${hinted ? " hinted" : ""}`, id: `place-${end}`, "data-focus": `place-${end}`,
        "data-hint": hinted ? "true" : null,
        onclick: () => act(actionFor(table.selected, end)),
      }, label, hinted ? hintTag() : null));
    }
  }
  for (const [action, id, key] of [["draw", "draw-button", "D"], ["pass", "pass-button", "P"]]) {
    if (!actions.includes(action)) continue;
    const hinted = Boolean(hint && hint.action === action);
    bar.append(el("button", {
      type: "button", class: `button primary${hinted ? " hinted" : ""}`, id, "data-action": action,
      "data-hint": hinted ? "true" : null, onclick: () => act(action),
    }, t(`${action}_button`), hinted ? hintTag() : null, el("kbd", { "aria-hidden": "true" }, key)));
  }
  if (hintsAllowed()) {
    const pending = Boolean(table.hint && table.hint.pending);
    bar.append(el("button", {
      type: "button", class: "button hint-button", id: "hint-button", "data-action": "hint",
      disabled: !canAskHint(), "aria-busy": String(pending), onclick: askHint,
    }, pending ? t("hint_working") : t("hint_button"), el("kbd", { "aria-hidden": "true" }, "H")));
    if (hint) bar.append(el("p", { id: "hint-text", class: "hint-text" }, hint.text));
  }
  if (myTurn && !actions.includes("draw") && !actions.includes("pass")) {
    bar.append(el("p", { class: "hint" }, table.selected ? t("hint_selected") : t("select_hint")));
  }
  return bar;
}

function renderBelow(message) {
  return el("div", { class: "below" }, renderLog(message), message.rounds.length ? renderSheet(message) : null, keysHelp(message));
}

function keysHelp(message) {
  const keys = ["keys_choose", "keys_arrows", "keys_draw", "keys_pass", "keys_escape"];
  if (message.table.hints) keys.push("keys_hint");
  return el("details", { class: "card keys" },
    el("summary", {}, t("keys_heading")),
    el("ul", {}, keys.map((key) => el("li", {}, t(key)))));
}

// ------------------------------------------------------------ choosing and placing

function choose(tile) {
  const ends = fitsOf(tile);
  if (table.selected === tile && ends.length === 1) { act(actionFor(tile, ends[0])); return; }
  table.selected = table.selected === tile ? null : tile;
  renderTable();
  if (table.selected) {
    const view = table.state.view;
    announce(ends.length
      ? t("selected", { tile, ends: ends.map((end) => endName(view.line.ends, end)).join(t("or")) })
      : t("fits_nowhere", { tile }));
  }
}

function rackKeys(event, tile) {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const tiles = [...document.querySelectorAll("[data-hand-tile]")];
  const index = tiles.findIndex((node) => node.dataset.handTile === tile);
  const next = tiles[(index + (event.key === "ArrowRight" ? 1 : tiles.length - 1)) % tiles.length];
  if (next) { event.preventDefault(); next.focus(); }
}

function placeAt(end) {
  if (!table.selected) return;
  if (fitsOf(table.selected).includes(String(end))) act(actionFor(table.selected, String(end)));
}

function decorateMarkers() {
  const view = table.state && table.state.view;
  const lit = table.selected ? fitsOf(table.selected) : [];
  const hint = currentHint();
  const hintedEnd = hint && hint.tile && hint.tile === table.selected ? hint.end : null;
  for (const marker of document.querySelectorAll("#line .port-marker")) {
    const end = marker.getAttribute("data-end");
    const name = view ? endName(view.line.ends, end) : end;
    marker.setAttribute("tabindex", "0");
    marker.setAttribute("role", "button");
    marker.setAttribute("aria-label", table.selected ? t("place_tile_on", { tile: table.selected, end: name }) : name);
    marker.classList.toggle("highlight", lit.includes(end));
    marker.classList.toggle("dim", Boolean(table.selected) && !lit.includes(end));
    if (end === hintedEnd) markHintedEnd(marker);
    marker.addEventListener("click", () => placeAt(end));
    marker.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); placeAt(end); }
    });
  }
}

/** The hinted end: a dashed outline around its marker and the word "Hint" above it. */
function markHintedEnd(marker) {
  marker.classList.add("hinted");
  marker.setAttribute("aria-label", `${marker.getAttribute("aria-label")}, ${t("hint_label")}`);
  let box;
  try { box = marker.getBBox(); } catch { return; }
  if (!box.width) return;
  const ns = "http://www.w3.org/2000/svg";
  const pad = Math.max(3, box.height * 0.12);
  const ring = document.createElementNS(ns, "rect");
  for (const [name, value] of Object.entries({
    class: "hint-ring", x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad,
    height: box.height + 2 * pad, rx: pad * 1.5, "aria-hidden": "true",
  })) ring.setAttribute(name, String(value));
  const label = document.createElementNS(ns, "text");
  const size = Math.max(10, box.height * 0.3);
  const above = box.y - pad - size * 0.35 > size;
  for (const [name, value] of Object.entries({
    class: "hint-word", x: box.x + box.width / 2, "text-anchor": "middle", "font-size": size,
    y: above ? box.y - pad - size * 0.35 : box.y + box.height + pad + size * 1.05, "aria-hidden": "true",
  })) label.setAttribute(name, String(value));
  label.textContent = t("hint_label");
  marker.append(ring, label);
}

function highlightMarkers(tile) {
  const lit = tile ? fitsOf(tile) : [];
  for (const marker of document.querySelectorAll("#line .port-marker")) {
    marker.classList.toggle("highlight", lit.includes(marker.getAttribute("data-end")));
  }
}

// A finger (or a mouse) drags a tile onto a marker: pointer events, not HTML5 drag.
function dragStart(event, tile) {
  if (event.button !== 0 || !fitsOf(tile).length) return;
  table.drag = { tile, x: event.clientX, y: event.clientY, ghost: null, source: event.currentTarget, id: event.pointerId };
  window.addEventListener("pointermove", dragMove);
  window.addEventListener("pointerup", dragEnd);
  window.addEventListener("pointercancel", dragCancel);
}

function dragMove(event) {
  const drag = table.drag;
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
    drag.ghost = el("div", { class: "drag-ghost", "aria-hidden": "true" }, tileImage(drag.tile));
    document.body.append(drag.ghost);
    drag.source.classList.add("dragging");
    highlightMarkers(drag.tile);
  }
  event.preventDefault();
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  const marker = markerAt(event.clientX, event.clientY);
  for (const node of document.querySelectorAll("#line .port-marker")) node.classList.toggle("over", node === marker);
}

function markerAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  const marker = hit && hit.closest ? hit.closest(".port-marker") : null;
  if (marker) return marker;
  // A finger is broad: the nearest lit marker within reach counts too.
  let best = null;
  let bestDistance = 48;
  for (const node of document.querySelectorAll("#line .port-marker.highlight")) {
    const r = node.getBoundingClientRect();
    const distance = Math.hypot(x - (r.left + r.width / 2), y - (r.top + r.height / 2)) - r.width / 2;
    if (distance < bestDistance) { best = node; bestDistance = distance; }
  }
  return best;
}

function dragEnd(event) {
  const drag = table.drag;
  dragCancel();
  if (!drag || !drag.ghost) return;
  table.suppressClick = true;
  window.setTimeout(() => { table.suppressClick = false; }, 50);
  const marker = markerAt(event.clientX, event.clientY);
  const end = marker && marker.getAttribute("data-end");
  if (end && fitsOf(drag.tile).includes(end)) act(actionFor(drag.tile, end));
  else highlightMarkers(table.selected);
}

function dragCancel() {
  const drag = table.drag;
  window.removeEventListener("pointermove", dragMove);
  window.removeEventListener("pointerup", dragEnd);
  window.removeEventListener("pointercancel", dragCancel);
  if (drag && drag.ghost) { drag.ghost.remove(); drag.source.classList.remove("dragging"); }
  table.drag = null;
}

// ------------------------------------------------------------ a round's end

function roundFacts(message) {
  const summary = message.last_round;
  const row = message.rounds[message.rounds.length - 1] || {};
  return {
    summary,
    credits: summary.credits || row.credits || [],
    scores: summary.scores || row.scores || (message.view ? message.view.scores : []),
    pips: summary.pip_totals || row.pip_totals || [],
    explanation: summary.explanation || row.explanation || "",
  };
}

function renderHands(message, facts) {
  const seats = message.table.seats;
  return el("ul", { id: "revealed", class: "revealed" }, facts.summary.revealed_hands.map((hand, seat) => {
    const credit = facts.credits[seat] || 0;
    return el("li", { class: `reveal-row${credit ? " gained" : ""}` },
      el("div", { class: "reveal-who" },
        el("span", { class: "reveal-name" }, seat === message.you ? t("seat_you_name", { name: seats[seat].name }) : seats[seat].name),
        el("span", { class: "reveal-pips" }, t("pip_total", { total: facts.pips[seat] ?? 0 }))),
      el("div", { class: "reveal-tiles" }, hand.length
        ? hand.map((tile, i) => {
          const img = tileImage(tile, { cls: `tile-img small${reducedMotion() ? "" : " reveal"}` });
          img.style.animationDelay = `${i * 60 + seat * 120}ms`;
          return img;
        })
        : el("span", { class: "muted" }, t("hand_out"))),
      el("div", { class: "reveal-score" },
        credit ? el("span", { class: "credit" }, `+${credit}`) : null,
        el("span", { class: "score" }, t("seat_score", { score: facts.scores[seat] ?? 0 }))));
  }));
}

function finalLine(facts) {
  const felt = el("div", { class: "felt mini", id: "final-felt" });
  const box = el("div", { id: "final-line", class: "line line-box" });
  showLine(box, facts.summary.line_svg, facts.summary.line_description, { lastTile: facts.summary.last_placed || null });
  felt.append(box);
  return felt;
}

function renderRoundEnd(message) {
  const facts = roundFacts(message);
  const { summary } = facts;
  const names_ = names();
  const wait = message.round_end;
  const wrap = el("div", { class: "round-page" });
  wrap.append(topBar(message, t("round_heading", { number: summary.number, match: message.table.match_number })));
  const box = el("section", { id: "round-over", class: "card round-end", "aria-labelledby": "round-over-heading" },
    el("h2", { id: "round-over-heading" }, t("round_over_heading", { number: summary.number })),
    el("p", { id: "round-explanation", class: "settle" }, facts.explanation),
    finalLine(facts),
    renderHands(message, facts));
  const waiting = wait && Array.isArray(wait.waiting) ? wait.waiting.filter((seat) => seat !== message.you) : [];
  const iWait = wait && Array.isArray(wait.waiting) && message.you !== null && !wait.waiting.includes(message.you);
  const footer = el("div", { class: "round-footer" });
  if (message.you !== null || !wait) {
    footer.append(el("button", {
      type: "button", class: "button primary big", "data-action": "continue",
      onclick: () => {
        if ("round_end" in message) send({ type: "continue" });
        else { table.localRoundEnd = 0; renderTable(); }
      },
    }, iWait ? t("continue_waiting") : t("continue_button")));
  }
  if (waiting.length) footer.append(el("p", { id: "waiting-for", class: "muted" }, t("waiting_for", { names: waiting.map((s) => names_[s]).join(", ") })));
  if (wait && typeof wait.seconds_left === "number") {
    footer.append(el("p", { id: "seconds-left", class: "muted" }, t("seconds_left", { seconds: Math.ceil(wait.seconds_left) })));
  }
  box.append(footer);
  wrap.append(box, el("div", { class: "below" }, renderSheet(message), renderLog(message)));
  return wrap;
}

// ------------------------------------------------------------ the match's end

function resultSentence(message) {
  const { result, you } = message;
  const seatNames = names();
  const scores = result.scores || (message.view ? message.view.scores : []);
  const winners = result.winners || [];
  const best = Math.max(...scores);
  const others = scores.map((s, i) => [s, i]).filter(([, i]) => !winners.includes(i)).map(([s]) => s);
  const runnerUp = others.length ? Math.max(...others) : best;
  if (result.is_draw) {
    if (you !== null && winners.includes(you)) {
      const rest = winners.filter((w) => w !== you).map((w) => seatNames[w]).join(", ");
      return t("result_draw_you", { names: rest, score: best });
    }
    return t("result_draw", { names: winners.map((w) => seatNames[w]).join(", "), score: best });
  }
  const winner = winners[0];
  if (you !== null && winner === you) return t("result_you_won", { score: best, other: runnerUp });
  // Every reader sees the same result: the winner against the best of the rest.
  const facts = { name: seatNames[winner], score: best, other: runnerUp };
  if (you !== null && scores[you] !== runnerUp) return t("result_other_won_you", { ...facts, mine: scores[you] });
  return t("result_other_won", facts);
}

function renderMatchEnd(message) {
  const { table: info, you } = message;
  const seatNames = names();
  const scores = message.result.scores || message.view.scores;
  const ranked = scores.map((score, seat) => ({ score, seat })).sort((a, b) => b.score - a.score);
  const wrap = el("div", { class: "match-page" });
  wrap.append(topBar(message, t("status_over", { number: info.match_number })));
  const card = el("section", { id: "result", class: "card match-end", "aria-labelledby": "result-text" },
    el("h2", { id: "result-text", class: "result-sentence" }, resultSentence(message)),
    el("ol", { id: "final-scores", class: "final-scores" }, ranked.map(({ score, seat }) => el("li", {
      class: message.result.winners.includes(seat) ? "winner" : "",
    }, el("span", { class: "fs-name" }, seat === you ? t("seat_you_name", { name: seatNames[seat] }) : seatNames[seat]),
    el("span", { class: "fs-score" }, String(score))))));
  const rematch = message.rematch;
  const rematchBox = el("div", { class: "rematch" });
  if (you !== null) {
    const accepted = rematch ? rematch.accepted.includes(you) : false;
    rematchBox.append(el("button", {
      type: "button", class: "button primary big", "data-action": "rematch", id: "rematch-button",
      "aria-disabled": accepted ? "true" : null,
      onclick: () => { if (!accepted) send({ type: "rematch" }); },
    }, accepted ? t("rematch_accepted") : t("rematch_button")));
  }
  rematchBox.append(el("p", { id: "rematch-status", class: "muted", role: "status" }, rematchText(message)));
  card.append(rematchBox);
  const last = info.match_number - 1;
  card.append(el("p", { class: "links" },
    el("a", { href: `/t/${info.id}/replay/${last}`, id: "replay-link", class: "button" }, t("replay_this")),
    el("a", { href: `/t/${info.id}/replay/${last}#review`, id: "review-link", class: "button" }, t("review_button")),
    el("a", { href: `/api/tables/${info.id}/matches/${last}/record`, download: "", id: "download-record", class: "button ghost" }, t("download_record"))));
  const earlier = (info.finished_matches || []).filter((n) => n !== last);
  if (earlier.length) {
    card.append(el("p", { class: "muted earlier" }, t("earlier_matches"), " ",
      earlier.map((n) => el("a", { href: `/t/${info.id}/replay/${n}` }, t("replay_link", { number: n + 1 })))));
  }
  wrap.append(card);
  const below = el("div", { class: "below" });
  if (message.last_round) {
    const facts = roundFacts(message);
    below.append(el("section", { class: "card last-round", "aria-labelledby": "round-over-heading" },
      el("h2", { id: "round-over-heading" }, t("round_over_heading", { number: facts.summary.number })),
      el("p", { id: "round-explanation", class: "settle" }, facts.explanation),
      finalLine(facts), renderHands(message, facts)));
  }
  below.append(renderSheet(message), renderLog(message));
  wrap.append(below);
  return wrap;
}

/** Who wants a rematch and whom it waits for; nothing before anybody asked. */
function rematchText(message) {
  const { rematch, you } = message;
  if (!rematch || !rematch.accepted.length) return "";
  const seatNames = names();
  const human = (seat) => message.table.seats[seat] && message.table.seats[seat].kind !== "bot";
  const accepted = rematch.accepted.filter(human);
  const waiting = rematch.needed.filter((seat) => !rematch.accepted.includes(seat));
  const others = accepted.filter((seat) => seat !== you).map((seat) => seatNames[seat]);
  const waitingNames = listNames(waiting.filter((seat) => seat !== you).map((seat) => seatNames[seat]));
  if (!waiting.length) return t("rematch_starting");
  if (you !== null && rematch.accepted.includes(you)) {
    return others.length
      ? t("rematch_you_and_waiting", { names: listNames(others), waiting: waitingNames })
      : t("rematch_you_waiting", { waiting: waitingNames });
  }
  if (!others.length) return "";
  const wants = t(others.length === 1 ? "rematch_wants_one" : "rematch_wants_many", { names: listNames(others) });
  const rest = waiting.filter((seat) => seat !== you);
  return you === null && rest.length ? `${wants} ${t("rematch_waiting", { names: waitingNames })}` : wants;
}

// ------------------------------------------------------------ score sheet and log

function renderSheet(message) {
  const seatNames = names();
  const target = message.view ? message.view.target : null;
  return el("section", { class: "card sheet", "aria-labelledby": "sheet-heading" },
    el("h2", { id: "sheet-heading" }, t("sheet_heading"), target ? el("span", { class: "muted" }, " · ", t("target", { target })) : null),
    el("table", { id: "score-sheet", class: "score-sheet" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("sheet_round_short")),
        seatNames.map((name) => el("th", { scope: "col", title: name }, name)))),
      el("tbody", {}, message.rounds.map((row) => el("tr", {},
        el("th", { scope: "row" }, String(row.number)),
        row.scores.map((score, seat) => el("td", {},
          el("span", { class: "cell-score" }, String(score)),
          row.credits[seat] ? el("span", { class: "cell-credit" }, `+${row.credits[seat]}`) : null)))))));
}

function renderLog(message) {
  const seatNames = names();
  const groups = message.rounds.map((row) => ({ number: row.number, moves: describeMoves(row.history || [], seatNames), explanation: row.explanation }));
  const current = message.view && message.table.status === "playing" && !roundEndShown()
    ? describeMoves(message.view.history || [], seatNames) : null;
  const list = el("ol", { id: "log", class: "log-rounds" });
  for (const group of groups) {
    list.append(el("li", { class: "log-round" },
      el("h3", {}, t("round_title", { number: group.number })),
      el("ol", { class: "moves" }, group.moves.map((move) => el("li", {}, move.text)),
        el("li", { class: "settled" }, group.explanation))));
  }
  if (current) {
    list.append(el("li", { class: "log-round current" },
      el("h3", {}, t("round_title", { number: message.rounds.length + 1 })),
      el("ol", { class: "moves" }, current.length ? current.map((move) => el("li", {}, move.text))
        : el("li", { class: "muted" }, t("log_empty")))));
  }
  return el("section", { class: "card log", "aria-labelledby": "log-heading" },
    el("h2", { id: "log-heading" }, t("log_heading")),
    el("div", { id: "log-scroll", class: "log-scroll", tabindex: "0" }, list));
}

// ------------------------------------------------------------ keys and size

export function tableKeys(event) {
  if (!table.state) return false;
  if (event.key === "d" && legal().includes("draw") && isMyTurn()) { act("draw"); return true; }
  if (event.key === "p" && legal().includes("pass") && isMyTurn()) { act("pass"); return true; }
  if (event.key === "h" && canAskHint()) return askHint();
  if (event.key === "Escape" && table.selected) {
    const tile = table.selected;
    table.selected = null;
    renderTable();
    document.querySelector(`[data-hand-tile="${tile}"]`)?.focus();
    return true;
  }
  return false;
}

export function tableResized() {
  if (!table.state) return;
  for (const box of document.querySelectorAll(".line-box")) fitLine(box, window.innerWidth < 600 ? 60 : 76);
  checkRoom();
}

export function tableLanguage() {
  if (table.dead) { showMissing(); return; }
  if (table.socket && table.socket.readyState === WebSocket.OPEN) helloAgain();
  else if (table.state) renderTable();
}

