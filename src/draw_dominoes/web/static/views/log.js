// The score sheet and the move log, both built from the public history (so they survive a
// reload and follow a language switch), and the latest move in words for the live region.

import { el, t } from "../core.js";
import { describeMoves } from "../line.js";

export function renderSheet(ctrl) {
  const message = ctrl.state;
  const seatNames = ctrl.names();
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

export function renderLog(ctrl) {
  const message = ctrl.state;
  const seatNames = ctrl.names();
  const groups = message.rounds.map((row) => ({ number: row.number, moves: describeMoves(row.history || [], seatNames), explanation: row.explanation }));
  const current = message.view && message.table.status === "playing" && !ctrl.roundEndShown()
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

/** The latest move in words, each end named by its value (the server's text otherwise). */
export function moveAnnouncement(before, message, seatNames) {
  if (!before || message.seq <= before.seq || message.table.match_number !== before.table.match_number) {
    return message.announce;
  }
  if (message.rounds.length > before.rounds.length) {
    const row = message.rounds[message.rounds.length - 1];
    const moves = describeMoves(row.history || [], seatNames);
    return [moves.length ? moves[moves.length - 1].text : "", row.explanation].join(" ").trim();
  }
  const moves = describeMoves((message.view && message.view.history) || [], seatNames);
  return moves.length ? moves[moves.length - 1].text : message.announce;
}
