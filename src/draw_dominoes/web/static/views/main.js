// Draws the table's screen for the controller's state (lobby, play, a round's end, the
// match's end), marks the app root with the stable hooks, keeps focus, and the page-wide notes.

import { el, t, replace, focusKey, restoreFocus, setTitle } from "../core.js";
import { fitLine } from "../line.js";
import { renderLobby } from "./lobby.js";
import { renderPlay, decorateMarkers } from "./board.js";
import { renderRoundEnd, countdown } from "./round_end.js";
import { renderMatchEnd } from "./match_end.js";

const FALLBACKS = [
  '[data-action="continue"]', '[data-action="rematch"]', '[data-playable="true"]',
  '[data-action="draw"]', '[data-action="pass"]', "[data-hand-tile]", '[data-action="start"]',
  "#join-name", "#invite-link",
];

export function render(ctrl) {
  const message = ctrl.state;
  const root = document.getElementById("app");
  // Focus never stays on <body>: a redraw puts it back, or on the next sensible control.
  let focused = focusKey() || (document.activeElement === document.body ? "#no-focus-yet" : null);
  if (ctrl.afterMove && focused && /port-marker|place-|data-action="(draw|pass)"/.test(focused)
      && message.seq > ctrl.prevSeq) {
    focused = "#after-move";  // not the marker again: the rack's tiles, or draw and pass
  }
  const typed = document.getElementById("join-name");
  if (typed) ctrl.typedName = typed.value;
  const status = message.table.status;

  const roundOver = ctrl.roundEndShown();
  const myTurn = ctrl.isMyTurn();
  let screen;
  if (status === "lobby") screen = renderLobby(ctrl);
  else if (status === "over" && message.result) screen = renderMatchEnd(ctrl);
  else if (roundOver) screen = renderRoundEnd(ctrl);
  else if (message.view) screen = renderPlay(ctrl);
  else screen = el("p", {}, t("loading"));
  replace(root, screen);

  root.dataset.page = "table";
  root.dataset.seq = String(message.seq);
  root.dataset.status = status;
  root.dataset.myTurn = String(myTurn);
  if (roundOver) root.dataset.roundOver = "true"; else delete root.dataset.roundOver;

  fitLines();
  decorateMarkers(ctrl);
  const log = document.getElementById("log-scroll");
  if (log) log.scrollTop = log.scrollHeight;
  // The tab's title says when it is this seat's turn.
  if (myTurn) setTitle(t("title_your_turn"));
  else if (roundOver) setTitle(t("round_over_heading", { number: message.last_round.number }));
  else if (status === "over") setTitle(t("status_over", { number: message.table.match_number }));
  else if (status === "lobby") setTitle(t("status_lobby"));
  else setTitle(t("status_playing", { number: message.table.match_number }));
  countdown(message.round_end);

  const moved = focused && !document.querySelector(focused);
  const rackFirst = ['[data-playable="true"]', '[data-action="draw"]', '[data-action="pass"]', ...FALLBACKS];
  if (focused === "#after-move" && !myTurn) {
    restoreFocus(focused, ['[data-action="continue"]', '[data-action="rematch"]', "[data-hand-tile]", ...FALLBACKS]);
  } else {
    restoreFocus(focused, moved && myTurn ? rackFirst : FALLBACKS);
  }
  // Back to this seat's turn after a move from the line: the first tile that fits.
  if (ctrl.afterMove && myTurn && focusKey() && document.activeElement.matches('[data-hand-tile][data-playable="false"]')) {
    document.querySelector('[data-playable="true"], [data-action="draw"], [data-action="pass"]')?.focus({ preventScroll: true });
  }
}

/** Every line on screen at the largest tiles that fit its box. */
export function fitLines() {
  for (const box of document.querySelectorAll(".line-box")) {
    fitLine(box, window.innerWidth < 600 ? 60 : 76);
  }
}

export function setConnection(text) {
  const node = document.getElementById("connection");
  if (node) { node.textContent = text; node.hidden = !text; }
}

export function showError(text) {
  const box = document.getElementById("errors");
  if (box) box.textContent = text || "";
}

/** The table does not exist (or no longer): the server's reason and the way home. */
export function showMissing(ctrl) {
  const root = document.getElementById("app");
  root.dataset.status = "missing";
  const text = ctrl.lastError && ctrl.lastError.message ? ctrl.lastError.message : t("error_unknown_table");
  replace(root, el("section", { class: "card missing", "aria-labelledby": "missing-heading" },
    el("h1", { id: "missing-heading" }, t("missing_heading")),
    el("p", { id: "errors", role: "alert" }, text),
    el("p", {}, el("a", { href: "/", class: "button primary", id: "home-link" }, t("missing_home")))));
  setTitle(t("missing_heading"));
}
