// A finished match, position by position: step, jump to a round's start or end, autoplay;
// and its review: every decision of a player marked, the points given away, the worst ones.

import { app, el, t, replace, tileImage, announce, focusKey, restoreFocus, setTitle, postJSON } from "./core.js";
import { showLine, fitLine } from "./line.js";

const replay = { tableId: null, number: 0, step: 0, total: undefined, data: null, timer: null, starts: null, ends: null, busy: false };
const review = { status: null, data: null, seat: null, done: 0, total: 0, position: 0, error: null, code: null, poll: null, scrolled: false, focus: null };

/** Each class has a symbol as well as a colour (as chess sites mark moves). */
const SYMBOLS = { forced: "\u25a1", best: "\u2605", good: "\u2713", inaccuracy: "?!", mistake: "?", blunder: "??" };
const SHOWN_KINDS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const BAD = new Set(["inaccuracy", "mistake", "blunder"]);

function room() {
  const box = document.querySelector("#replay-felt .line-box");
  if (box && box.clientWidth > 0) return { width: box.clientWidth - 16, height: box.clientHeight - 16 };
  return { width: Math.max(280, Math.min(window.innerWidth - 40, 1100)), height: Math.max(200, Math.round(window.innerHeight * 0.45)) };
}

export function openReplay(tableId, number) {
  Object.assign(replay, { tableId, number, step: 0 });
  window.clearTimeout(review.poll);
  Object.assign(review, { status: null, data: null, seat: null, done: 0, total: 0, position: 0, error: null, code: null, poll: null, scrolled: false });
  document.getElementById("app").dataset.page = "replay";
  showStep(0);
  loadReview(window.location.hash === "#review");
}

function roundBounds(data) {
  // The server's own numbers when it sends them, else what the steps tell.
  replay.starts = Array.isArray(data.round_starts) ? data.round_starts : replay.starts;
  replay.ends = Array.isArray(data.round_ends) ? data.round_ends : replay.ends;
}

export async function showStep(step, deal = false) {
  const { tableId, number } = replay;
  const { width, height } = room();
  const response = await fetch(`/api/tables/${tableId}/matches/${number}/replay/${step}?lang=${app.lang}&width=${Math.round(width)}&height=${Math.round(height)}${deal ? "&deal=true" : ""}`);
  if (response.status === 429) return;  // stepping faster than the server allows: stay here
  const data = await response.json();
  const root = document.getElementById("app");
  if (!response.ok) {
    stopAutoplay();
    replace(root, el("section", { class: "card missing" },
      el("h1", {}, t("replay_heading", { number: number + 1 })),
      el("p", { role: "alert", id: "errors" }, data.message),
      el("p", {}, el("a", { href: "/", class: "button primary" }, t("missing_home")))));
    return;
  }
  replay.step = data.step;
  replay.total = data.total;
  replay.data = data;
  roundBounds(data);
  render(data);
  const here = decisionHere();
  if (data.announce || here) announce([data.announce, here ? hereText(here) : ""].join(" ").trim());
}

function go(target, deal = false) {
  if (replay.total === undefined) return;
  return showStep(Math.max(0, Math.min(replay.total, target)), deal);
}

function roundStart(delta) {
  const starts = replay.starts || [0];
  const step = replay.step;
  if (delta < 0) {
    const before = starts.filter((s) => s < step);
    return go(before.length ? before[before.length - 1] : 0, true);
  }
  const after = starts.filter((s) => s > step);
  return go(after.length ? after[0] : replay.total, after.length > 0);
}

function roundEnd(delta) {
  const ends = replay.ends || [replay.total];
  const step = replay.step;
  if (delta < 0) {
    const before = ends.filter((s) => s < step);
    return go(before.length ? before[before.length - 1] : 0);
  }
  const after = ends.filter((s) => s > step);
  return go(after.length ? after[0] : replay.total);
}

function stopAutoplay() {
  window.clearInterval(replay.timer);
  replay.timer = null;
}

function toggleAutoplay() {
  if (replay.timer) { stopAutoplay(); render(replay.data); return; }
  if (replay.step >= replay.total) replay.step = 0;
  replay.timer = window.setInterval(async () => {
    if (replay.busy) return;
    if (replay.step >= replay.total) { stopAutoplay(); render(replay.data); return; }
    replay.busy = true;
    try { await go(replay.step + 1); } finally { replay.busy = false; }
  }, 900);
  render(replay.data);
}

function button(id, label, onclick, extra = {}) {
  return el("button", { type: "button", class: "button", id, "data-focus": id, onclick, ...extra }, label);
}

function render(data) {
  const root = document.getElementById("app");
  const focused = review.focus || focusKey();
  review.focus = null;
  const playing = Boolean(replay.timer);
  const felt = el("div", { class: "felt replay-felt", id: "replay-felt" });
  const box = el("div", { id: "line", class: "line line-box" });
  showLine(box, data.line_svg, data.line_description);
  felt.append(box);
  const rounds = replay.starts ? replay.starts.map((start, i) => el("li", {},
    el("span", { class: "jump-label" }, t("round_title", { number: i + 1 })),
    button(`jump-start-${i}`, t("replay_round_start"), () => go(start, true),
      { "data-jump": `start-${i}`, "aria-label": t("replay_round_start_label", { number: i + 1 }) }),
    replay.ends && replay.ends[i] !== undefined
      ? button(`jump-end-${i}`, t("replay_round_end"), () => go(replay.ends[i]),
        { "data-jump": `end-${i}`, "aria-label": t("replay_round_end_label", { number: i + 1 }) }) : null)) : [];
  const reviewing = review.status !== null && review.status !== "error-missing";
  replace(root,
    el("div", { class: `replay-page${reviewing ? " with-review" : ""}` },
      el("div", { class: "replay-main" },
      el("div", { class: "table-bar" },
        el("h1", { class: "table-heading" }, t("replay_heading", { number: replay.number + 1 })),
        el("p", { id: "replay-step", class: "target", "data-step": String(data.step) }, t("replay_step", { step: data.step, total: data.total, round: data.round }))),
      el("div", { class: "replay-controls", role: "group", "aria-label": t("replay_controls") },
        button("replay-first", t("replay_first"), () => go(0)),
        button("replay-round-prev", t("replay_prev_round"), () => roundStart(-1)),
        button("replay-prev", t("replay_prev"), () => go(replay.step - 1)),
        button("replay-play", playing ? t("replay_pause") : t("replay_play"), toggleAutoplay, { "aria-pressed": String(playing), "data-action": "autoplay" }),
        button("replay-next", t("replay_next"), () => go(replay.step + 1)),
        button("replay-round-end", t("replay_next_end"), () => roundEnd(1)),
        button("replay-last", t("replay_last"), () => go(replay.total))),
      el("p", { id: "replay-announce", class: "replay-announce" }, data.announce || "\u00a0"),
      reviewHere(),
      felt,
      el("p", { class: "muted" }, t("boneyard", { size: data.boneyard_size, drawable: Math.max(0, data.boneyard_size - 2) })),
      el("ul", { id: "replay-hands", class: "revealed" }, data.hands.map((hand, seat) => el("li", { class: "reveal-row" },
        el("div", { class: "reveal-who" },
          el("span", { class: "reveal-name" }, data.names[seat]),
          el("span", { class: "reveal-pips" }, t("seat_score", { score: data.scores[seat] }))),
        el("div", { class: "reveal-tiles" }, hand.length ? hand.map((tile) => tileImage(tile, { cls: "tile-img small" })) : el("span", { class: "muted" }, t("hand_out")))))),
      data.explanation ? el("p", { id: "replay-explanation", class: "settle" }, data.explanation) : null),
      reviewCard(),
      el("div", { class: "replay-footer" },
      rounds.length ? el("section", { class: "card", "aria-labelledby": "jump-heading" },
        el("h2", { id: "jump-heading" }, t("replay_rounds")),
        el("ul", { class: "jumps" }, rounds)) : null,
      el("p", { class: "hint" }, t("replay_keys")),
      el("p", { class: "links" },
        el("a", { href: `/api/tables/${replay.tableId}/matches/${replay.number}/record`, download: "", class: "button ghost" }, t("download_record")),
        el("a", { href: `/t/${replay.tableId}`, class: "button ghost" }, t("back_to_table"))))));
  fitLine(box, window.innerWidth < 600 ? 56 : 72);
  showCurrentBar();
  setTitle(t("replay_heading", { number: replay.number + 1 }));
  restoreFocus(focused, ["#replay-play"]);
}

export function replayKeys(event) {
  if (replay.total === undefined) return false;
  if (event.target.closest && event.target.closest(".review-chart")) return false;  // its own arrows
  const keys = {
    ArrowRight: () => go(replay.step + 1),
    ArrowLeft: () => go(replay.step - 1),
    Home: () => go(0),
    End: () => go(replay.total),
    PageUp: () => roundStart(-1),
    PageDown: () => roundEnd(1),
    " ": () => toggleAutoplay(),
  };
  if (event.key === " " && event.target.tagName === "BUTTON") return false;
  const handler = keys[event.key];
  if (!handler) return false;
  event.preventDefault();
  handler();
  return true;
}

export function replayActive() { return replay.tableId !== null; }
export function replayRedraw() {
  if (!replay.tableId) return;
  showStep(replay.step);
  if (review.status === "done") loadReview(false);  // the words come in the new language
}
export function replayResized() {
  const box = document.querySelector("#replay-felt .line-box");
  if (box) fitLine(box, window.innerWidth < 600 ? 56 : 72);
}

// ------------------------------------------------------------ the review

function reviewUrl() {
  return `/api/tables/${replay.tableId}/matches/${replay.number}/review?lang=${app.lang}`;
}

/** Waits while a review waits or runs: 0.8 s, or as long as the server asks (``Retry-After``). */
const POLL_MS = 800;

/** Asks how the review stands (``start``: starts it if it was never made); polls while it waits or runs. */
async function loadReview(start) {
  window.clearTimeout(review.poll);
  const { tableId, number } = replay;
  let ok;
  let status;
  let data;
  let wait = 0;
  try {
    let response;
    if (start) ({ ok, status, data, response } = await postJSON(reviewUrl(), {}));
    else {
      response = await fetch(reviewUrl());
      ({ ok, status } = response);
      data = await response.json();
    }
    wait = Number(response.headers.get("Retry-After")) || 0;
  } catch {
    ok = false;
    data = { message: t("error_internal") };
  }
  if (replay.tableId !== tableId || replay.number !== number) return;  // another page by now
  const waiting = review.status === "queued" || review.status === "running";
  if (!ok && waiting && !start && (status === 429 || status === 503)) {
    review.poll = window.setTimeout(() => loadReview(false), Math.max(POLL_MS, wait * 1000));  // asked too often: later
    return;
  }
  if (!ok) {
    review.status = review.status === null && !start ? "error-missing" : "error";
    review.error = data.message || t("error_internal");
    review.code = data.error || null;
  } else {
    review.status = data.status;
    review.error = null;
    review.code = null;
    if (data.status === "running" || data.status === "queued") {
      review.done = data.done || 0;
      review.total = data.total || 0;
      review.position = data.position || 0;
      review.poll = window.setTimeout(() => loadReview(false), POLL_MS);
    } else if (data.status === "done") {
      review.data = data.review;
      if (review.seat === null) review.seat = firstPerson(data.review);
    }
  }
  showReview();
}

function firstPerson(data) {
  const index = (data.kinds || []).indexOf("human");
  return index >= 0 ? index : 0;
}

/** Redraws the review's parts alone (not the line): while it runs, and once it is done. */
function showReview() {
  if (!replay.data) return;
  const card = document.getElementById("review");
  if (!card) { render(replay.data); return; }
  const focused = focusKey();
  card.replaceWith(reviewCard());
  document.getElementById("review-here")?.replaceWith(reviewHere());
  showCurrentBar();
  document.querySelector(".replay-page")?.classList.toggle("with-review", review.status !== "error-missing");
  restoreFocus(focused, ["#review-start", "#review-heading"]);
  if (window.location.hash === "#review" && !review.scrolled) {
    review.scrolled = true;
    document.getElementById("review")?.scrollIntoView({ block: "start" });
  }
}

function decisionsOf(seat) {
  return review.data ? review.data.decisions.filter((d) => d.seat === seat) : [];
}

/** The chosen player's decision at this position (the move about to be made), if any. */
function decisionHere() {
  if (review.status !== "done" || review.seat === null) return null;
  return decisionsOf(review.seat).find((d) => d.step === replay.step) || null;
}

function number(value) {
  return new Intl.NumberFormat(app.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

function kindName(kind) {
  return t(`kind_${kind}`);
}

function hereText(d) {
  const name = review.data.names[d.seat];
  const values = { name, played: d.played_text, kind: kindName(d.kind) };
  if (d.kind === "best" || d.kind === "forced" || !d.loss) return t("review_here_best", values);
  return t("review_here_loss", { ...values, points: number(d.loss), better: d.best_text });
}

function mark(kind) {
  return el("span", { class: `mark kind-${kind}`, "aria-hidden": "true" }, SYMBOLS[kind]);
}

function reviewHere() {
  const d = decisionHere();
  if (!d) return el("p", { id: "review-here", class: "review-here", hidden: true });
  return el("p", { id: "review-here", class: `review-here kind-${d.kind}`, "data-kind": d.kind }, mark(d.kind), " ", hereText(d));
}

function jumpTo(d) {
  stopAutoplay();
  const done = go(d.step, d.deal);
  Promise.resolve(done).then(() => {
    const top = document.querySelector(".replay-main");
    if (top && top.getBoundingClientRect().top < 0 && window.innerWidth < 1100) {
      top.scrollIntoView({ block: "start" });
    }
  });
}

/** A long chart scrolls sideways in its own box: the bar of this position is kept in view. */
function showCurrentBar() {
  const chartBox = document.getElementById("review-chart");
  const bar = chartBox && (chartBox.querySelector(".chart-col.current") || chartBox.querySelector('.chart-col[tabindex="0"]'));
  if (!bar || chartBox.scrollWidth <= chartBox.clientWidth) return;
  const left = bar.offsetLeft - chartBox.clientWidth / 2;
  chartBox.scrollLeft = Math.max(0, left);
}

function reviewCard() {
  const card = el("section", { id: "review", class: "card review", "aria-labelledby": "review-heading", "data-status": review.status || "none" },
    el("h2", { id: "review-heading", tabindex: "-1" }, t("review_heading")));
  if (review.status === "error-missing") { card.hidden = true; return card; }
  if (review.status === null || review.status === "none" || review.status === "failed" || review.status === "error") {
    card.append(el("p", {}, t("review_intro")));
    if (review.status === "failed") card.append(el("p", { role: "alert" }, t("review_failed")));
    if (review.status === "error") card.append(el("p", { role: "alert", id: "review-error", "data-code": review.code || "" }, review.error));
    if (review.code === "not_seated") return card;  // a spectator cannot ask for one
    card.append(el("p", {}, el("button", {
      type: "button", class: "button primary", id: "review-start", "data-focus": "review-start",
      onclick: () => loadReview(true),
    }, t("review_start"))));
    return card;
  }
  if (review.status === "queued") {
    card.append(el("p", { class: "muted" }, t("review_intro")),
      el("progress", { id: "review-progress", "aria-labelledby": "review-progress-text" }),
      el("p", { id: "review-progress-text", role: "status", "data-position": String(review.position) },
        review.position ? t("review_queued", { position: review.position }) : t("review_waiting")));
    return card;
  }
  if (review.status === "running") {
    const total = review.total || 0;
    card.append(el("p", { class: "muted" }, t("review_intro")),
      el("progress", { id: "review-progress", max: String(Math.max(1, total)), value: String(review.done || 0), "aria-labelledby": "review-progress-text" }),
      el("p", { id: "review-progress-text", role: "status" },
        total ? t("review_progress", { done: review.done, total }) : t("review_waiting")));
    return card;
  }
  const data = review.data;
  card.append(accuracyTable(data));
  const seat = review.seat;
  const name = data.names[seat];
  const mine = decisionsOf(seat);
  card.append(el("h3", { id: "review-chart-heading" }, t("review_chart_heading"), el("span", { class: "muted" }, " · ", name)), chart(mine, name));
  const worst = ((data.summary[String(seat)] || {}).mistakes || [])
    .map(([round, move]) => mine.find((d) => d.round === round && d.move === move)).filter(Boolean);
  card.append(el("h3", { id: "review-mistakes-heading" }, t("review_mistakes_heading"), el("span", { class: "muted" }, " · ", name)));
  if (!worst.length) card.append(el("p", { id: "review-mistakes", class: "muted" }, t("review_no_mistakes", { name })));
  else {
    card.append(el("ol", { id: "review-mistakes", class: "review-mistakes" }, worst.map((d) => el("li", {},
      el("button", {
        type: "button", class: `button mistake kind-${d.kind}`, "data-focus": `mistake-${d.round}.${d.move}`,
        "data-decision": `${d.round}.${d.move}`, "data-step": String(d.step), "data-deal": String(d.deal),
        "aria-current": d.step === replay.step ? "step" : null, onclick: () => jumpTo(d),
      }, mark(d.kind), el("span", {}, t("review_mistake", {
        round: d.round + 1, move: d.move + 1, played: d.played_text, kind: kindName(d.kind),
        points: number(d.loss), better: d.best_text,
      })))))));
  }
  card.append(el("details", { class: "review-legend" },
    el("summary", {}, t("review_legend")),
    el("ul", { class: "legend" }, ["forced", ...SHOWN_KINDS].map((kind) => el("li", {}, mark(kind), " ", kindName(kind)))),
    el("p", { class: "muted" }, t("review_note"))));
  return card;
}

function accuracyTable(data) {
  const seats = data.seats || data.names.map((_, i) => i);
  return el("table", { id: "review-accuracy", class: "review-table" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("review_player")),
      el("th", { scope: "col" }, t("review_accuracy")),
      SHOWN_KINDS.map((kind) => el("th", { scope: "col", class: "count", title: kindName(kind) },
        mark(kind), el("span", { class: "visually-hidden" }, kindName(kind)))))),
    el("tbody", {}, seats.map((seat) => {
      const summary = data.summary[String(seat)] || { counts: {} };
      const chosen = seat === review.seat;
      return el("tr", { class: chosen ? "chosen" : "" },
        el("th", { scope: "row" }, el("button", {
          type: "button", class: "button small seat-choice", "data-focus": `review-seat-${seat}`, "data-seat": String(seat),
          "aria-pressed": String(chosen), title: data.names[seat],
          onclick: () => { review.seat = seat; render(replay.data); },
        }, data.names[seat])),
        el("td", { class: "accuracy", "data-seat": String(seat) }, summary.accuracy === null || summary.accuracy === undefined
          ? t("review_no_choice") : t("review_percent", { value: number(summary.accuracy) })),
        SHOWN_KINDS.map((kind) => el("td", { class: "count" }, String(summary.counts[kind] || 0))));
    })));
}

/** Points given away at each decision, one bar each (a symbol over the bad ones); each bar
 * is a button that jumps there, and the arrow keys walk from one decision to the next. */
function chart(decisions, name) {
  const worst = decisions.reduce((a, d) => (d.loss > a.loss ? d : a), { loss: 0, round: 0 });
  const cap = Math.max(10, Math.min(20, Math.ceil(worst.loss)));
  const label = worst.loss >= 1
    ? t("review_chart_label", { name, count: decisions.length, worst: number(worst.loss), round: worst.round + 1 })
    : t("review_chart_clean", { name, count: decisions.length });
  const current = decisions.find((d) => d.step === replay.step) || decisions.find((d) => d.step > replay.step) || decisions[0];
  const bars = el("div", { class: "chart-bars" });
  let round = -1;
  decisions.forEach((d, index) => {
    if (d.round !== round) {
      round = d.round;
      bars.append(el("span", { class: "chart-round", "aria-hidden": "true" }, t("review_round_short", { number: round + 1 })));
    }
    const bar = el("span", { class: "chart-bar" });
    bar.style.height = `${Math.max(3, Math.min(100, (d.loss / cap) * 100))}%`;
    bars.append(el("button", {
      type: "button", class: `chart-col kind-${d.kind}${d.step === replay.step ? " current" : ""}`,
      "data-focus": `decision-${d.round}.${d.move}`, "data-decision": `${d.round}.${d.move}`, "data-step": String(d.step),
      tabindex: d === current ? "0" : "-1", "aria-current": d.step === replay.step ? "step" : null,
      "aria-label": t("review_decision_label", { round: d.round + 1, move: d.move + 1, played: d.played_text, kind: kindName(d.kind) })
        + (d.loss >= 0.05 ? ` (${number(d.loss)})` : ""),
      title: t("review_decision_label", { round: d.round + 1, move: d.move + 1, played: d.played_text, kind: kindName(d.kind) }),
      onclick: () => jumpTo(d),
      onkeydown: (event) => {
        const delta = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
        if (!delta) return;
        event.preventDefault();
        const next = decisions[index + delta];
        if (!next) return;
        review.focus = `[data-focus="decision-${next.round}.${next.move}"]`;
        jumpTo(next);
      },
    }, el("span", { class: "chart-sym", "aria-hidden": "true" }, BAD.has(d.kind) ? SYMBOLS[d.kind] : ""), bar));
  });
  return el("div", { id: "review-chart", class: "review-chart", role: "group", "aria-labelledby": "review-chart-heading", "aria-describedby": "review-chart-summary" },
    el("p", { id: "review-chart-summary", class: "visually-hidden" }, label),
    el("span", { class: "chart-scale", "aria-hidden": "true" }, t("review_chart_scale", { points: cap })),
    bars);
}
