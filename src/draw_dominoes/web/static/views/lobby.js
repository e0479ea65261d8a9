// The lobby: the seats (the host makes open seats bots or back), the invite link, the host's
// switches for a public table and hints, the join form for a visitor, and Start.

import { el, t, levelName, levelAbout, storedName } from "../core.js";
import { topBar, seatNotes } from "./common.js";

export function renderLobby(ctrl) {
  const message = ctrl.state;
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
        el("select", { id, onchange: (event) => ctrl.configureSeat(seat.seat, event.target.value || null) },
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
  card.append(el("h2", { id: "invite-label" }, t("invite_text")), inviteRow(invite),
    el("p", { id: "copy-status", class: "muted", role: "status" }));
  if (you !== null && ctrl.token) {
    card.append(el("details", { class: "seat-link" },
      el("summary", {}, t("your_link_summary")),
      el("p", {}, el("label", { for: "seat-link" }, t("your_link"))),
      el("input", { id: "seat-link", readonly: true, value: `${invite}?token=${ctrl.token}` })));
  }
  if (isHost && "public" in info) {
    card.append(el("p", { class: "check" },
      el("input", {
        type: "checkbox", id: "visibility", "data-focus": "visibility", checked: Boolean(info.public),
        onchange: (event) => ctrl.setPublic(event.target.checked),
      }),
      el("label", { for: "visibility" }, t("public_checkbox"))));
  }
  if (isHost && "hints" in info) {
    card.append(el("p", { class: "check" },
      el("input", {
        type: "checkbox", id: "hints-toggle", "data-focus": "hints-toggle", checked: Boolean(info.hints),
        "aria-describedby": "hints-status",
        onchange: (event) => ctrl.allowHints(event.target.checked),
      }),
      el("label", { for: "hints-toggle" }, t("hints_checkbox"))));
  }
  if ("hints" in info) {
    card.append(el("p", { id: "hints-status", class: `hints-status${info.hints ? " on" : ""}`, "data-hints": String(Boolean(info.hints)) },
      el("span", { class: "hints-mark", "aria-hidden": "true" }, info.hints ? "\u2713" : "\u2013"), " ",
      t(info.hints ? "hints_allowed" : "hints_not_allowed")));
  }
  if (you === null && open.length) {
    card.append(el("form", {
      id: "join-form", class: "join",
      onsubmit: (event) => {
        event.preventDefault();
        ctrl.join(document.getElementById("join-name").value.trim());
      },
    },
    el("h2", {}, t("join_heading")),
    el("p", { class: "field" }, el("label", { for: "join-name" }, t("your_name")),
      el("input", { id: "join-name", maxlength: 24, value: ctrl.typedName ?? storedName(), placeholder: t("default_name") })),
    el("button", { type: "submit", id: "join-button", class: "button primary" }, t("join_button"))));
  } else if (you === null) {
    card.append(el("p", { id: "spectating" }, t("spectating")));
  }
  if (isHost) {
    card.append(el("p", {}, el("button", {
      id: "start-button", type: "button", class: "button primary big", "data-action": "start",
      disabled: open.length > 0, onclick: () => ctrl.start(),
    }, t("start_button"))));
    if (open.length) card.append(el("p", { class: "muted" }, t("waiting_seats")));
  } else if (you !== null) {
    card.append(el("p", { class: "muted" }, t("waiting_host")));
  }
  box.append(card);
  return box;
}

/** The invite link with Copy (and Share, where the browser offers it). */
function inviteRow(invite) {
  return el("div", { class: "invite-row" },
    el("input", { id: "invite-link", readonly: true, value: invite, "aria-labelledby": "invite-label" }),
    el("button", {
      type: "button", class: "button", "data-focus": "copy",
      onclick: async () => {
        const status = document.getElementById("copy-status");
        try {
          await navigator.clipboard.writeText(invite);
          status.textContent = t("copied");
        } catch {
          // No clipboard (an insecure origin): the link is selected for copying by hand.
          document.getElementById("invite-link").select();
          status.textContent = t("copy_failed");
        }
      },
    }, t("copy_button")),
    navigator.share ? el("button", {
      type: "button", class: "button", "data-focus": "share",
      onclick: () => navigator.share({ title: t("app_title"), text: t("share_text"), url: invite }).catch(() => {}),
    }, t("share_button")) : null);
}
