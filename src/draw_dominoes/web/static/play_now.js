// The start page's "Play now" card: wait for people who want the same table, then sit down.

import { app, el, t, postJSON, replace, storedName } from "./core.js";

let waiting = null;  // { ticket, timer }

function stop(card) {
  if (waiting) window.clearTimeout(waiting.timer);
  waiting = null;
  renderPlayNow(card);
}

async function pollOnce(card) {
  if (!waiting || !card.isConnected) { waiting = null; return; }
  const { ok, data } = await postJSON(`/api/play-now/poll?lang=${app.lang}`, { ticket: waiting.ticket });
  if (!ok) { stop(card); card.querySelector(".errors").textContent = data.message || ""; return; }
  show(card, data);
}

function show(card, data) {
  if (data.status === "matched") {
    localStorage.setItem(`dd_token_${data.table_id}`, data.ticket);
    waiting = null;
    window.location.assign(data.url);
    return;
  }
  const status = card.querySelector("#play-now-status");
  status.textContent = t("play_now_waiting", { seconds: Math.round(data.waited) })
    + (data.bots_in !== null ? ` ${t("play_now_bots_in", { seconds: Math.ceil(data.bots_in) })}` : "");
  waiting.timer = window.setTimeout(() => pollOnce(card), 1000);
}

async function begin(card, event) {
  event.preventDefault();
  const level = document.getElementById("play-level");
  const request = {
    players: Number(card.querySelector("#play-now-players").value),
    rated: card.querySelector("#play-now-rated").checked,
    bots: card.querySelector("#play-now-bots").checked,
    // No name given: the server names the seat (the account's user name, or "Player").
    name: (document.getElementById("name")?.value || "").trim() || storedName() || undefined,
  };
  if (level && level.value) request.level = level.value;  // the one-click game's level
  const { ok, data } = await postJSON(`/api/play-now?lang=${app.lang}`, request);
  if (!ok) { card.querySelector(".errors").textContent = data.message || ""; return; }
  waiting = { ticket: data.ticket, timer: null };
  replace(card,
    el("h2", { id: "play-now-heading" }, t("play_now_heading")),
    el("p", { id: "play-now-status", role: "status" }, ""),
    el("p", {}, el("button", { type: "button", class: "button", "data-action": "stop-waiting",
      onclick: async () => {
        const ticket = waiting && waiting.ticket;
        stop(card);
        if (ticket) await postJSON("/api/play-now/cancel", { ticket });
      } }, t("play_now_cancel"))),
    el("p", { class: "errors", role: "alert" }));
  show(card, data);
}

/** The card: how many players, rated or not, bots after the wait; then the wait itself. */
export function renderPlayNow(card) {
  replace(card,
    el("h2", { id: "play-now-heading" }, t("play_now_heading")),
    el("p", { class: "muted" }, t("play_now_intro")),
    el("form", { id: "play-now-form", onsubmit: (event) => begin(card, event) },
      el("p", { class: "field" }, el("label", { for: "play-now-players" }, t("play_now_players")),
        el("select", { id: "play-now-players" }, [2, 3, 4].map((n) => el("option", { value: n }, String(n))))),
      el("p", { class: "check" }, el("input", { type: "checkbox", id: "play-now-rated" }),
        el("label", { for: "play-now-rated" }, t("play_now_rated"))),
      el("p", { class: "check" }, el("input", { type: "checkbox", id: "play-now-bots", checked: true }),
        el("label", { for: "play-now-bots" }, t("play_now_bots"))),
      el("p", {}, el("button", { type: "submit", class: "button primary", "data-action": "play-now" }, t("play_now_button"))),
      el("p", { class: "errors", role: "alert" })));
}
