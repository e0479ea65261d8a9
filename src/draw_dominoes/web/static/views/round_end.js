// A round's end, a moment of its own: the final line, every hand revealed with its pips, the
// settlement in a sentence, and Continue (with whom the table still waits for, and how long).

import { el, t, tileImage, reducedMotion } from "../core.js";
import { showLine } from "../line.js";
import { topBar } from "./common.js";
import { renderLog, renderSheet } from "./log.js";

// The seconds left count down between states; only this screen shows them.
let ticker = null;
let deadline = 0;

/** The round's summary, with the score sheet's row standing in for what an older server left out. */
export function roundFacts(message) {
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

export function renderHands(message, facts) {
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

export function finalLine(facts) {
  const felt = el("div", { class: "felt mini", id: "final-felt" });
  const box = el("div", { id: "final-line", class: "line line-box" });
  showLine(box, facts.summary.line_svg, facts.summary.line_description, { lastTile: facts.summary.last_placed || null });
  felt.append(box);
  return felt;
}

export function renderRoundEnd(ctrl) {
  const message = ctrl.state;
  const facts = roundFacts(message);
  const { summary } = facts;
  const names = ctrl.names();
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
      onclick: () => ctrl.continueRound(),
    }, iWait ? t("continue_waiting") : t("continue_button")));
  }
  if (waiting.length) footer.append(el("p", { id: "waiting-for", class: "muted" }, t("waiting_for", { names: waiting.map((s) => names[s]).join(", ") })));
  if (wait && typeof wait.seconds_left === "number") {
    footer.append(el("p", { id: "seconds-left", class: "muted" }, t("seconds_left", { seconds: Math.ceil(wait.seconds_left) })));
  }
  box.append(footer);
  wrap.append(box, el("div", { class: "below" }, renderSheet(ctrl), renderLog(ctrl)));
  return wrap;
}

/** Starts (or stops) the countdown of a round's end after each drawing. */
export function countdown(roundEnd) {
  window.clearInterval(ticker);
  if (roundEnd && typeof roundEnd.seconds_left === "number") {
    deadline = Date.now() + roundEnd.seconds_left * 1000;
    ticker = window.setInterval(tick, 1000);
  }
}

function tick() {
  const node = document.getElementById("seconds-left");
  if (!node) { window.clearInterval(ticker); return; }
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  node.textContent = t("seconds_left", { seconds: left });
}
