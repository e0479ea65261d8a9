// The start page: what Draw is, one click against a bot, a full table set-up, public tables.

import { app, el, t, levelName, levelAbout, postJSON, storedName, defaultName, replace, tileImage } from "./core.js";
import { renderAccount } from "./account.js";
import { renderPlayNow } from "./play_now.js";

let listTimer = null;

function seedParam(request) {
  const seed = new URLSearchParams(window.location.search).get("seed");
  if (seed !== null && /^\d+$/.test(seed)) request.seed = Number(seed);
  return request;
}

function nameInput() {
  const input = document.getElementById("name");
  const typed = input ? input.value.trim() : "";
  if (typed) localStorage.setItem("name", typed);
  return typed || defaultName();
}

function showError(text) {
  const box = document.getElementById("errors");
  if (box) box.textContent = text || "";
}

async function create(request) {
  showError("");
  const { ok, data } = await postJSON(`/api/tables?lang=${app.lang}`, seedParam(request));
  if (!ok) { showError(data.message); return; }
  localStorage.setItem(`dd_token_${data.table_id}`, data.token);
  window.location.assign(data.url);
}

function playBot() {
  const chosen = document.getElementById("play-level");
  const fallback = app.offered.includes("heuristic") ? "heuristic" : app.offered[0];
  const level = chosen && chosen.value ? chosen.value : fallback;
  localStorage.setItem("play_level", level);
  // One click: the server deals at once, since the only other seat is a bot; against a
  // bot, hints are there to learn from.
  create({ players: 2, name: nameInput(), bots: { 1: level }, start: true, hints: true });
}

/** The level the one-click game is against: the one chosen last time, else medium. */
function levelChoice() {
  const levels = app.levels || [];
  const kept = localStorage.getItem("play_level");
  const initial = levels.includes(kept) ? kept : (levels.includes("heuristic") ? "heuristic" : levels[0]);
  return el("p", { class: "field play-level" },
    el("label", { for: "play-level" }, t("play_level_label")),
    el("select", { id: "play-level", name: "play-level" },
      levels.map((bot) => el("option", { value: bot, selected: bot === initial, title: levelAbout(bot) }, levelName(bot)))));
}

function createFromForm(event) {
  event.preventDefault();
  const players = Number(document.getElementById("players").value);
  const bots = {};
  for (let seat = 1; seat < players; seat += 1) {
    const level = document.getElementById(`seat-${seat}`).value;
    if (level) bots[String(seat)] = level;
  }
  const request = { players, name: nameInput(), bots };
  if (document.getElementById("public").checked) request.public = true;
  if (document.getElementById("hints").checked) request.hints = true;
  if (document.getElementById("rated").checked) request.rated = true;
  const clock = Number(document.getElementById("move-seconds").value);
  if (clock) request.move_seconds = clock;
  create(request);
}

export async function joinTable(tableId, name) {
  const { ok, data } = await postJSON(`/api/tables/${tableId}/join?lang=${app.lang}`, { name });
  if (!ok) return { error: data.message || t("error_internal") };
  localStorage.setItem(`dd_token_${tableId}`, data.token);
  return data;
}

function ageText(seconds) {
  if (seconds < 60) return t("age_seconds");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("age_minutes", { minutes });
  return t("age_hours", { hours: Math.round(minutes / 60) });
}

async function refreshTables() {
  const box = document.getElementById("public-tables");
  if (!box) { window.clearInterval(listTimer); return; }
  let tables = [];
  try {
    const response = await fetch("/api/tables");
    if (response.ok) tables = (await response.json()).tables || [];
  } catch { tables = []; }
  const list = document.getElementById("public-list");
  if (!list) return;
  if (!tables.length) {
    replace(list, el("li", { class: "empty" }, t("public_none")));
    return;
  }
  const focused = document.activeElement && document.activeElement.dataset.join;
  replace(list, tables.map((table) => el("li", { class: "public-table" },
    el("div", { class: "public-facts" },
      el("strong", {}, t("public_host", { name: table.host || "?" })),
      el("span", {}, t("public_players", {
        players: table.players,
        seats: table.free === 1 ? t("public_seats_one") : t("public_seats_many", { free: table.free }),
      })),
      el("span", { class: "age" }, ageText(table.age || 0))),
    el("button", {
      type: "button", class: "button", "data-join": table.id, "data-focus": `join-${table.id}`,
      "aria-label": t("public_join_label", { name: table.host || "?" }),
      onclick: async (event) => {
        event.target.disabled = true;
        const joined = await joinTable(table.id, nameInput());
        if (joined.error) { showError(joined.error); event.target.disabled = false; return; }
        window.location.assign(joined.url);
      },
    }, t("public_join")))));
  if (focused) document.querySelector(`[data-join="${focused}"]`)?.focus();
}

/** "Set up a table" brings the form into view and its first choice under the cursor. */
function showForm(event) {
  event.preventDefault();
  const form = document.getElementById("create-form");
  if (!form) return;
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  form.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
  document.getElementById("players")?.focus({ preventScroll: true });
  form.classList.remove("flash");
  void form.offsetWidth;  // restart the highlight
  if (smooth) form.classList.add("flash");
}

export function renderStart() {
  const root = document.getElementById("app");
  root.dataset.page = "start";
  for (const key of ["status", "seq", "myTurn", "roundOver"]) delete root.dataset[key];
  const offered = app.offered || [];
  const players = el("select", { id: "players", name: "players" },
    [2, 3, 4].map((n) => el("option", { value: n, selected: n === 3 }, String(n))));
  const seatRows = el("div", { id: "seat-choices", class: "seat-choices" });
  function drawSeats() {
    const kept = {};
    for (const node of seatRows.querySelectorAll("select")) kept[node.id] = node.value;
    seatRows.replaceChildren();
    for (let seat = 1; seat < Number(players.value); seat += 1) {
      const id = `seat-${seat}`;
      const select = el("select", { id },
        el("option", { value: "" }, t("seat_open")),
        offered.map((level) => el("option", { value: level, selected: level === "heuristic", title: levelAbout(level) },
          t("seat_bot", { level: levelName(level) }))));
      if (id in kept) select.value = kept[id];
      seatRows.append(el("p", { class: "field" }, el("label", { for: id }, t("seat_label", { number: seat + 1 })), select));
    }
  }
  players.addEventListener("change", drawSeats);
  drawSeats();
  const hand = ["[6|6]", "[3|5]", "[1|4]"].map((tile) => tileImage(tile, { vertical: true, cls: "hero-tile" }));
  replace(root,
    el("section", { class: "hero", "aria-labelledby": "hero-heading" },
      el("div", { class: "hero-tiles", "aria-hidden": "true" }, hand),
      el("div", { class: "hero-text" },
        el("h1", { id: "hero-heading" }, t("start_heading")),
        el("p", { class: "lead" }, t("start_line_1")),
        el("p", { class: "lead" }, t("start_line_2")),
        el("p", { class: "field name-field" },
          el("label", { for: "name" }, t("your_name")),
          el("input", { id: "name", name: "name", maxlength: 24, autocomplete: "nickname", value: storedName(), placeholder: t("default_name") })),
        levelChoice(),
        el("p", { class: "hero-actions" },
          el("button", { type: "button", class: "button primary big", "data-action": "play-bot", onclick: playBot }, t("play_bot")),
          el("a", { href: "#create-form", class: "button ghost big", onclick: showForm }, t("set_up_link"))),
        el("p", { id: "errors", role: "alert", class: "errors" }))),
    el("div", { class: "start-grid" },
      el("section", { class: "card", id: "account", "aria-labelledby": "account-heading" },
        el("h2", { id: "account-heading" }, t("account_loading"))),
      el("section", { class: "card", id: "play-now", "aria-labelledby": "play-now-heading" }),
      el("form", { id: "create-form", class: "card", onsubmit: createFromForm, "aria-labelledby": "create-heading" },
        el("h2", { id: "create-heading" }, t("create_heading")),
        el("p", { class: "field" }, el("label", { for: "players" }, t("players_label")), players),
        seatRows,
        el("p", { class: "check" },
          el("input", { type: "checkbox", id: "public", name: "public" }),
          el("label", { for: "public" }, t("public_checkbox"))),
        el("p", { class: "check" },
          el("input", { type: "checkbox", id: "hints", name: "hints" }),
          el("label", { for: "hints" }, t("hints_checkbox"))),
        el("p", { class: "check" },
          el("input", { type: "checkbox", id: "rated", name: "rated" }),
          el("label", { for: "rated" }, t("rated_checkbox"))),
        el("p", { class: "field" }, el("label", { for: "move-seconds" }, t("clock_label")),
          el("select", { id: "move-seconds", name: "move-seconds" },
            [0, 15, 30, 60].map((n) => el("option", { value: n }, n ? t("clock_seconds", { seconds: n }) : t("clock_none"))))),
        el("p", {}, el("button", { type: "submit", id: "create-button", class: "button primary" }, t("create_button")))),
      el("section", { class: "card", "aria-labelledby": "public-heading", id: "public-tables" },
        el("h2", { id: "public-heading" }, t("public_heading")),
        el("ul", { id: "public-list", class: "public-list" }, el("li", { class: "empty" }, t("public_loading"))))));
  renderAccount(document.getElementById("account"));
  renderPlayNow(document.getElementById("play-now"));
  refreshTables();
  window.clearInterval(listTimer);
  listTimer = window.setInterval(refreshTables, 8000);
}
