// The table while a round is played: the felt with the line and the boneyard, the rack,
// the opponents around it, the buttons (place, draw, pass, hint) and what lies below.

import { el, t, tileImage, reducedMotion } from "../core.js";
import { showLine, endName, describeMoves } from "../line.js";
import { tileClick, rackKeys, dragStart, bindMarker } from "../input.js";
import { topBar, seatNotes, opponentName, avatar, hintTag, clockOf, clockNote, ratingBadge } from "./common.js";
import { renderLog, renderSheet } from "./log.js";
import { chatBar, chatBubble, muteButton } from "./chat.js";

export function feltBox() {
  return document.querySelector("#felt .line-box");
}

/** The room the line may take, in CSS pixels: measured on the felt, else guessed from the window. */
export function feltRoom() {
  const box = feltBox();
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

function lastActions(ctrl) {
  const moves = describeMoves(ctrl.state.view.history || [], ctrl.names());
  const last = {};
  for (const move of moves) last[move.seat] = move;
  return last;
}

/** Where the others sit around the felt, clockwise from this seat (a spectator sees all). */
function opponentPositions(message) {
  const players = message.table.players;
  const me = message.you === null ? 0 : message.you;
  const others = [];
  for (let i = 1; i < players; i += 1) others.push((me + i) % players);
  if (message.you === null) others.unshift(me);
  // A spectator of four sees two players across the felt: side by side along its top.
  const places = { 1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"], 4: ["left", "top top-first", "top top-second", "right"] }[others.length];
  return others.map((seat, i) => ({ seat, place: places[i] }));
}

function renderOpponent(ctrl, seat, place, last) {
  const message = ctrl.state;
  const info = message.table.seats[seat];
  const { view } = message;
  const count = view.hand_sizes[seat];
  const toMove = message.table.status === "playing" && view.current_player === seat;
  const shown = Math.min(count, 12);
  const doing = toMove ? el("p", { class: "opp-status thinking" }, t("thinking"), " ", clockOf(message, seat))
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
  doing, chatBubble(message, seat), muteButton(ctrl, seat));
}

export function renderPlay(ctrl) {
  const message = ctrl.state;
  const { view, you } = message;
  const myTurn = ctrl.isMyTurn();
  const roundNumber = message.rounds.length + 1;
  const wrap = el("div", { class: "play-page" });
  wrap.append(topBar(message, t("round_heading", { number: roundNumber, match: message.table.match_number })));
  const grid = el("div", { class: `table-top players-${message.table.players}${you === null ? " watching" : ""}` });
  const last = lastActions(ctrl);

  // DOM order is tab order: the rack first, then the line's markers, then draw and pass.
  if (you !== null) grid.append(renderRack(ctrl, myTurn));
  const felt = el("section", { id: "felt", class: "felt", "aria-labelledby": "line-heading" },
    el("h2", { id: "line-heading", class: "visually-hidden" }, t("line_heading")));
  const lineBox = el("div", { id: "line", class: "line line-box" });
  const seqGrew = message.seq > ctrl.prevSeq && ctrl.prevSeq >= 0;
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
      t("waiting_for", { names: waiting.map((seat) => ctrl.names()[seat]).join(", ") }),
      typeof left === "number" ? " · " + t("seconds_left", { seconds: Math.ceil(left) }) : ""));
  }
  grid.append(felt);
  if (you !== null) grid.append(renderActions(ctrl, myTurn));
  for (const { seat, place } of opponentPositions(message)) {
    grid.append(renderOpponent(ctrl, seat, place, last));
  }
  wrap.append(grid);
  if (you === null) wrap.append(el("p", { id: "spectating", class: "muted" }, t("spectating")));
  wrap.append(renderBelow(ctrl));
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

function renderRack(ctrl, myTurn) {
  const message = ctrl.state;
  const { view } = message;
  const info = message.table.seats[message.you];
  const turnText = myTurn ? t("your_turn") : t("turn_of", { name: ctrl.names()[view.current_player] });
  // Tiles drawn since the last drawing arrive with a short animation.
  const fresh = drawnSince(view, ctrl.handSeq < 0 ? 0 : message.seq - ctrl.handSeq);
  const hint = ctrl.currentHint();
  const rack = el("section", { id: "rack", class: `rack${myTurn ? " my-turn" : ""}`, "aria-labelledby": "hand-heading" },
    el("div", { class: "rack-head", id: `seat-${message.you}-info` },
      el("h2", { id: "hand-heading" }, t("hand_label")),
      el("span", { class: "rack-name" }, info.name),
      ratingBadge(message, message.you),
      el("span", { class: "opp-score" }, t("seat_score", { score: view.scores[message.you] })),
      el("p", { id: "turn", class: myTurn ? "turn my-turn" : "turn", role: "status" }, turnText),
      clockOf(message, message.you), clockNote(message), chatBubble(message, message.you)));
  const hand = el("div", { id: "hand", class: "hand", role: "group", "aria-labelledby": "hand-heading" });
  for (const tile of view.hand) {
    const ends = ctrl.fitsOf(tile);
    const playable = ends.length > 0;
    const selected = ctrl.selected === tile;
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
      onclick: () => tileClick(ctrl, tile),
      onkeydown: (event) => rackKeys(event, tile),
      onpointerdown: (event) => dragStart(ctrl, event, tile),
    }, tileImage(tile), hinted ? hintTag() : null);
    hand.append(button);
  }
  if (!view.hand.length) hand.append(el("p", { class: "muted" }, t("hand_empty")));
  rack.append(hand);
  return rack;
}

/** The tiles this seat drew in the round's last ``count`` moves and still holds: the
 * history names the tile of the seat's own draws (and only of its own). */
function drawnSince(view, count) {
  if (count <= 0) return new Set();
  const recent = view.history.slice(-count).filter((entry) => entry.tile && view.hand.includes(entry.tile));
  return new Set(recent.map((entry) => entry.tile));
}

function renderActions(ctrl, myTurn) {
  const { view } = ctrl.state;
  const actions = ctrl.legal();
  const hint = ctrl.currentHint();
  const bar = el("div", { id: "actions", class: "actions" });
  if (ctrl.selected && view.hand.includes(ctrl.selected)) {
    for (const end of ctrl.fitsOf(ctrl.selected)) {
      const label = end === "open" ? t("place_open", { tile: ctrl.selected })
        : t("place_on", { end: endName(view.line.ends, end) });
      const hinted = Boolean(hint && hint.tile === ctrl.selected && hint.end === end);
      bar.append(el("button", {
        type: "button", class: `button place${hinted ? " hinted" : ""}`, id: `place-${end}`, "data-focus": `place-${end}`,
        "data-hint": hinted ? "true" : null,
        onclick: () => ctrl.act(ctrl.actionFor(ctrl.selected, end)),
      }, label, hinted ? hintTag() : null));
    }
  }
  for (const [action, id, key] of [["draw", "draw-button", "D"], ["pass", "pass-button", "P"]]) {
    if (!actions.includes(action)) continue;
    const hinted = Boolean(hint && hint.action === action);
    bar.append(el("button", {
      type: "button", class: `button primary${hinted ? " hinted" : ""}`, id, "data-action": action,
      "data-hint": hinted ? "true" : null, onclick: () => ctrl.act(action),
    }, t(`${action}_button`), hinted ? hintTag() : null, el("kbd", { "aria-hidden": "true" }, key)));
  }
  if (ctrl.hintsAllowed()) {
    const pending = Boolean(ctrl.hint && ctrl.hint.pending);
    bar.append(el("button", {
      type: "button", class: "button hint-button", id: "hint-button", "data-action": "hint",
      disabled: !ctrl.canAskHint(), "aria-busy": String(pending), onclick: () => ctrl.askHint(),
    }, pending ? t("hint_working") : t("hint_button"), el("kbd", { "aria-hidden": "true" }, "H")));
    if (hint) bar.append(el("p", { id: "hint-text", class: "hint-text" }, hint.text));
  }
  if (myTurn && !actions.includes("draw") && !actions.includes("pass")) {
    bar.append(el("p", { class: "hint" }, ctrl.selected ? t("hint_selected") : t("select_hint")));
  }
  if (ctrl.state.table.seats.some((s) => s.kind === "human" && s.seat !== ctrl.state.you)) {
    bar.append(chatBar(ctrl));  // said to people only: bots do not listen
  }
  bar.append(leavingBar(ctrl));
  return bar;
}

/** Take back (a match against bots), resign with its confirmation, and what leaving means. */
function leavingBar(ctrl) {
  const { table, you } = ctrl.state;
  const leaving = table.leaving || { resigned: [], take_back: false, away_resigns: false };
  const box = el("div", { id: "leaving", class: "leaving" });
  if (leaving.resigned.includes(you)) {
    box.append(el("p", { id: "resigned-note", class: "leaving-note", role: "status" }, t("resigned_you")));
    return box;
  }
  if (ctrl.confirmingResign) {
    box.append(el("div", { id: "resign-confirm", class: "confirm", role: "alertdialog", "aria-labelledby": "resign-question" },
      el("p", { id: "resign-question" }, t(table.rated ? "resign_question_rated" : "resign_question")),
      el("button", { type: "button", class: "button danger", id: "resign-yes", "data-action": "resign-yes", onclick: () => ctrl.resign() }, t("resign_yes")),
      el("button", { type: "button", class: "button", id: "resign-no", "data-action": "resign-no", onclick: () => ctrl.askResign(false) }, t("resign_no"))));
    return box;
  }
  const buttons = el("p", { class: "leaving-buttons" });
  // Against bots alone (unrated) the button is always there, enabled when there is a move
  // to take back: the buttons keep their place and the line its room.
  const againstBots = !table.rated && table.seats.every((s) => s.seat === you || s.kind === "bot");
  if (againstBots) {
    buttons.append(el("button", { type: "button", class: "button ghost", id: "take-back-button", "data-action": "take-back",
      disabled: !leaving.take_back, onclick: () => ctrl.takeBack() }, t("take_back_button"), el("kbd", { "aria-hidden": "true" }, "U")));
  }
  buttons.append(el("button", { type: "button", class: "button ghost", id: "resign-button", "data-action": "resign",
    onclick: () => ctrl.askResign(true) }, t("resign_button")));
  box.append(buttons);
  if (leaving.away_resigns) {
    box.append(el("p", { id: "away-resigns", class: "muted" }, t("away_resigns", { seconds: Math.round(table.away_seconds) })));
  }
  return box;
}

/** The Hint button while a hint is asked for, or after it was refused: no redraw needed. */
export function updateHintButton(ctrl) {
  const button = document.getElementById("hint-button");
  if (!button) return;
  const pending = Boolean(ctrl.hint && ctrl.hint.pending);
  button.disabled = !ctrl.canAskHint();
  button.setAttribute("aria-busy", String(pending));
  button.firstChild.textContent = pending ? t("hint_working") : t("hint_button");
}

function renderBelow(ctrl) {
  return el("div", { class: "below" }, renderLog(ctrl), ctrl.state.rounds.length ? renderSheet(ctrl) : null, keysHelp(ctrl.state));
}

function keysHelp(message) {
  const keys = ["keys_choose", "keys_arrows", "keys_draw", "keys_pass", "keys_escape"];
  if (message.table.hints) keys.push("keys_hint");
  if ((message.table.leaving || {}).take_back) keys.push("keys_take_back");
  return el("details", { class: "card keys" },
    el("summary", {}, t("keys_heading")),
    el("ul", {}, keys.map((key) => el("li", {}, t(key)))));
}

/** The server's end markers become buttons: named by their value, lit where the chosen tile fits. */
export function decorateMarkers(ctrl) {
  const view = ctrl.state && ctrl.state.view;
  const lit = ctrl.selected ? ctrl.fitsOf(ctrl.selected) : [];
  const hint = ctrl.currentHint();
  const hintedEnd = hint && hint.tile && hint.tile === ctrl.selected ? hint.end : null;
  for (const marker of document.querySelectorAll("#line .port-marker")) {
    const end = marker.getAttribute("data-end");
    const name = view ? endName(view.line.ends, end) : end;
    marker.setAttribute("tabindex", "0");
    marker.setAttribute("role", "button");
    marker.setAttribute("aria-label", ctrl.selected ? t("place_tile_on", { tile: ctrl.selected, end: name }) : name);
    marker.classList.toggle("highlight", lit.includes(end));
    marker.classList.toggle("dim", Boolean(ctrl.selected) && !lit.includes(end));
    if (end === hintedEnd) markHintedEnd(marker);
    bindMarker(ctrl, marker, end);
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
  // The open end has the felt's "play any tile here" note below it: its word goes above.
  const above = marker.getAttribute("data-end") === "open" || box.y - pad - size * 0.35 > size;
  for (const [name, value] of Object.entries({
    class: "hint-word", x: box.x + box.width / 2, "text-anchor": "middle", "font-size": size,
    y: above ? box.y - pad - size * 0.35 : box.y + box.height + pad + size * 1.05, "aria-hidden": "true",
  })) label.setAttribute(name, String(value));
  label.textContent = t("hint_label");
  marker.append(ring, label);
}
