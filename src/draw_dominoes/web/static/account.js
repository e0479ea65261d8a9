// The start page's account card: sign in or up (optional), then your games on any device.

import { app, el, t, postJSON, replace } from "./core.js";

async function sendJSON(method, url, data) {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data || {}),
  });
  let payload = {};
  try { payload = await response.json(); } catch { payload = {}; }
  return { ok: response.ok, status: response.status, data: payload };
}

/** The signed-in player, or null for a guest. */
export async function fetchMe() {
  try {
    const response = await fetch("/api/me", { cache: "no-store" });
    if (!response.ok) return null;
    return await response.json();
  } catch { return null; }
}

/** A refusal said next to the field it is about (``field``), else under the form. */
function showRefusal(form, data) {
  for (const node of form.querySelectorAll(".field-error")) node.textContent = "";
  for (const input of form.querySelectorAll("input")) input.removeAttribute("aria-invalid");
  const field = data.field && form.querySelector(`[name="${data.field}"]`);
  const where = field ? form.querySelector(`#${field.id}-error`) : form.querySelector(".form-error");
  if (field) field.setAttribute("aria-invalid", "true");
  if (where) where.textContent = data.message || t("error_internal");
  (field || where)?.focus?.();
}

function textField(id, name, label, attrs) {
  return el("p", { class: "field" },
    el("label", { for: id }, label),
    el("input", { id, name, "aria-describedby": `${id}-error`, required: true, ...attrs }),
    el("span", { id: `${id}-error`, class: "field-error", role: "alert" }));
}

function accountForm(kind, onDone) {
  const up = kind === "up";
  const form = el("form", { class: "account-form", "data-form": `sign-${kind}`, novalidate: true },
    textField(`${kind}-username`, "username", t("account_username"),
      { autocomplete: "username", maxlength: 20, autocapitalize: "none", spellcheck: "false" }),
    textField(`${kind}-password`, "password", t("account_password"),
      { type: "password", autocomplete: up ? "new-password" : "current-password", maxlength: 256 }),
    up ? el("p", { class: "muted small" }, t("account_password_rule")) : null,
    el("p", { class: "form-error errors", role: "alert" }),
    el("p", {}, el("button", { type: "submit", class: "button primary", "data-action": `sign-${kind}` },
      t(up ? "account_sign_up" : "account_sign_in"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = {
      username: form.elements.username.value.trim(),
      password: form.elements.password.value,
    };
    const url = up ? `/api/accounts?lang=${app.lang}` : `/api/session?lang=${app.lang}`;
    const answer = await postJSON(url, data);
    if (!answer.ok) { showRefusal(form, answer.data); return; }
    onDone();
  });
  return form;
}

/** Abandon a running match against bots (it is resigned, W6): a second click confirms. */
function abandonButton(tableId, names, onDone) {
  const token = localStorage.getItem(`dd_token_${tableId}`);
  const button = el("button", { type: "button", class: "button ghost", "data-action": "abandon",
    "aria-label": `${t("games_abandon")}: ${names}` }, t("games_abandon"));
  button.addEventListener("click", async () => {
    if (button.dataset.sure !== "true") {
      button.dataset.sure = "true";
      button.textContent = t("games_abandon_sure");
      return;
    }
    button.disabled = true;
    const answer = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/resign?lang=${app.lang}`, token ? { token } : {});
    if (!answer.ok) {
      button.replaceWith(el("span", { class: "errors", role: "alert" }, (answer.data && answer.data.message) || t("error_internal")));
      return;
    }
    button.replaceWith(el("span", { class: "muted", role: "status" }, t("games_abandoned")));
    window.setTimeout(onDone, 800);
  });
  return button;
}

function gameItem(game, onDone) {
  const others = game.names.filter((_, seat) => seat !== game.seat);
  const running = game.status !== "over";
  const label = running ? t("games_resume") : t("games_open");
  const abandon = running && game.status === "playing" && game.bots_only
    ? abandonButton(game.table_id, others.join(", "), onDone) : null;
  return el("li", { class: "game-row", "data-game": game.table_id, "data-status": game.status },
    el("div", { class: "public-facts" },
      el("strong", {}, t("games_against", { names: others.join(", ") || "—" })),
      el("span", { class: "age" }, t(`games_status_${game.status}`))),
    el("span", { class: "game-buttons" },
      el("a", { class: "button", href: game.url, "aria-label": `${label}: ${others.join(", ")}` }, label), abandon));
}

function gamesList(me, onDone) {
  const running = me.games.filter((game) => game.status !== "over");
  const finished = me.games.filter((game) => game.status === "over").slice(0, 10);
  const list = (games, empty) => (games.length
    ? el("ul", { class: "public-list" }, games.map((game) => gameItem(game, onDone)))
    : el("p", { class: "muted" }, empty));
  return [
    el("h3", {}, t("games_running")), list(running, t("games_none_running")),
    el("h3", {}, t("games_finished")), list(finished, t("games_none_finished")),
  ];
}

/** A guest's running matches in this browser (the seats it holds tokens of), newest
 * first: so that a guest with matches against bots running can go back to them. */
async function guestGames() {
  const ids = Object.keys(localStorage).filter((k) => k.startsWith("dd_token_")).map((k) => k.slice(9)).slice(-10);
  const found = [];
  for (const id of ids.reverse()) {
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(id)}`);
      if (!response.ok) continue;
      const table = await response.json();
      if (table.status !== "over") found.push(table);
    } catch { /* leave it out */ }
  }
  return found;
}

function guestList(tables, onDone) {
  if (!tables.length) return null;
  const item = (table) => {
    const names = table.seats.filter((s) => s.kind !== "open" && s.seat !== table.you).map((s) => s.name).join(", ");
    const people = table.seats.filter((s) => s.kind !== "bot").length;
    const abandon = table.status === "playing" && people === 1 ? abandonButton(table.id, names, onDone) : null;
    return el("li", { class: "game-row", "data-game": table.id, "data-status": table.status },
      el("div", { class: "public-facts" },
        el("strong", {}, t("games_against", { names })),
        el("span", { class: "age" }, t(`games_status_${table.status}`))),
      el("span", { class: "game-buttons" }, el("a", { class: "button", href: `/t/${table.id}` }, t("games_resume")), abandon));
  };
  return el("div", { id: "guest-games" },
    el("h3", {}, t("games_in_browser")),
    el("ul", { class: "public-list" }, tables.map(item)));
}

/** The card: forms for a guest, the player's name and games once signed in. */
export async function renderAccount(card) {
  const me = await fetchMe();
  if (!card.isConnected) return;
  const again = () => renderAccount(card);
  if (me === null) {
    let kind = card.dataset.kind === "up" ? "up" : "in";
    const other = kind === "up" ? "in" : "up";
    replace(card,
      el("h2", { id: "account-heading" }, t(kind === "up" ? "account_sign_up_heading" : "account_sign_in_heading")),
      el("p", { class: "muted" }, t("account_optional")),
      accountForm(kind, again),
      el("p", {}, el("button", { type: "button", class: "link-button", "data-action": `show-sign-${other}`,
        onclick: () => { card.dataset.kind = other; again(); } },
      t(other === "up" ? "account_to_sign_up" : "account_to_sign_in"))),
      el("p", {}, el("a", { href: "/leaderboard" }, t("nav_leaderboard"))));
    const list = guestList(await guestGames(), again);
    if (list && card.isConnected && !card.dataset.signedIn) card.append(list);
    return;
  }
  card.dataset.signedIn = me.username;
  replace(card,
    el("h2", { id: "account-heading" }, t("account_signed_in", { name: me.username })),
    ...gamesList(me, again),
    el("p", { class: "account-links" },
      el("a", { href: `/players/${encodeURIComponent(me.username)}`, "data-link": "profile" }, t("account_profile_link")),
      " · ", el("a", { href: "/leaderboard" }, t("nav_leaderboard"))),
    el("p", {}, el("button", { type: "button", class: "link-button", "data-action": "sign-out",
      onclick: async () => { await sendJSON("DELETE", "/api/session"); delete card.dataset.signedIn; again(); } },
    t("account_sign_out"))));
}
