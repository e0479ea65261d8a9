// A finished match, position by position: step, jump to a round's start or end, autoplay.

import { app, el, t, replace, tileImage, announce, focusKey, restoreFocus, setTitle } from "./core.js";
import { showLine, fitLine } from "./line.js";

const replay = { tableId: null, number: 0, step: 0, total: undefined, data: null, timer: null, starts: null, ends: null, busy: false };

function room() {
  const box = document.querySelector("#replay-felt .line-box");
  if (box && box.clientWidth > 0) return { width: box.clientWidth - 16, height: box.clientHeight - 16 };
  return { width: Math.max(280, Math.min(window.innerWidth - 40, 1100)), height: Math.max(200, Math.round(window.innerHeight * 0.45)) };
}

export function openReplay(tableId, number) {
  Object.assign(replay, { tableId, number, step: 0 });
  document.getElementById("app").dataset.page = "replay";
  showStep(0);
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
  if (data.announce) announce(data.announce);
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
  const focused = focusKey();
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
  replace(root,
    el("div", { class: "replay-page" },
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
      felt,
      el("p", { class: "muted" }, t("boneyard", { size: data.boneyard_size, drawable: Math.max(0, data.boneyard_size - 2) })),
      el("ul", { id: "replay-hands", class: "revealed" }, data.hands.map((hand, seat) => el("li", { class: "reveal-row" },
        el("div", { class: "reveal-who" },
          el("span", { class: "reveal-name" }, data.names[seat]),
          el("span", { class: "reveal-pips" }, t("seat_score", { score: data.scores[seat] }))),
        el("div", { class: "reveal-tiles" }, hand.length ? hand.map((tile) => tileImage(tile, { cls: "tile-img small" })) : el("span", { class: "muted" }, t("hand_out")))))),
      data.explanation ? el("p", { id: "replay-explanation", class: "settle" }, data.explanation) : null,
      rounds.length ? el("section", { class: "card", "aria-labelledby": "jump-heading" },
        el("h2", { id: "jump-heading" }, t("replay_rounds")),
        el("ul", { class: "jumps" }, rounds)) : null,
      el("p", { class: "hint" }, t("replay_keys")),
      el("p", { class: "links" },
        el("a", { href: `/api/tables/${replay.tableId}/matches/${replay.number}/record`, download: "", class: "button ghost" }, t("download_record")),
        el("a", { href: `/t/${replay.tableId}`, class: "button ghost" }, t("back_to_table")))));
  fitLine(box, window.innerWidth < 600 ? 56 : 72);
  setTitle(t("replay_heading", { number: replay.number + 1 }));
  restoreFocus(focused, ["#replay-play"]);
}

export function replayKeys(event) {
  if (replay.total === undefined) return false;
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
export function replayRedraw() { if (replay.tableId) showStep(replay.step); }
export function replayResized() {
  const box = document.querySelector("#replay-felt .line-box");
  if (box) fitLine(box, window.innerWidth < 600 ? 56 : 72);
}
