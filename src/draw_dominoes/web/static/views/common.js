// Pieces every table screen shares: the bar with heading and scores, a seat's badges and
// name, the sound switch and the "Hint" tag.

import { el, t, replace, levelName, icon, strengthName } from "../core.js";
import { soundOn, setSound, beep } from "../sound.js";

const ratingsAsked = new Map();  // "table/match" -> the seats' ratings, once fetched

/** A rated table's seat shows its player's rating ("1523?" while provisional): fetched
 * once a match, filled in where the badges are. */
export function ratingBadge(message, seat) {
  if (!message.table.rated) return null;
  const key = `${message.table.id}/${message.table.match_number}`;
  const badge = el("span", { class: "badge rating", "data-rating-seat": String(seat) });
  const fill = (seats) => {
    for (const node of document.querySelectorAll(`[data-rating-seat]`)) {
      const found = seats[node.dataset.ratingSeat];
      node.textContent = found ? `${found.rating}${found.provisional ? "?" : ""}` : "";
    }
  };
  if (!ratingsAsked.has(key)) {
    ratingsAsked.set(key, fetch(`/api/tables/${message.table.id}/ratings`)
      .then((r) => (r.ok ? r.json() : { seats: {} })).then((data) => data.seats || {}).catch(() => ({})));
  }
  ratingsAsked.get(key).then((seats) => {
    const found = seats[String(seat)];
    badge.textContent = found ? `${found.rating}${found.provisional ? "?" : ""}` : "";
    window.setTimeout(() => fill(seats), 0);
  });
  return badge;
}

export function seatNotes(seat, message) {
  const notes = [ratingBadge(message, seat.seat)];
  if (seat.seat === message.you) notes.push(el("span", { class: "badge you" }, t("seat_you")));
  if (seat.seat === message.table.host_seat) notes.push(el("span", { class: "badge host" }, t("seat_host")));
  if (seat.kind === "bot") notes.push(el("span", { class: "badge bot", title: t("seat_bot", { level: levelName(seat.level) }) }, strengthName(seat.level)));
  const resigned = ((message.table.leaving || {}).resigned || []).includes(seat.seat);
  if (resigned) notes.push(el("span", { class: "badge resigned", "data-resigned": "true" }, t("resigned_tag")));
  else if (seat.kind === "human" && seat.away) notes.push(el("span", { class: "badge away" }, t("seat_away")));
  else if (seat.kind === "human" && !seat.connected) notes.push(el("span", { class: "badge offline" }, t("seat_offline")));
  return notes;
}

/** Who is connected changed: only the badges and the spectators' count are redrawn. */
export function refreshPresence(ctrl) {
  const message = ctrl.state;
  for (const seat of message.table.seats) {
    const box = document.querySelector(`#seat-${seat.seat}-info .notes`);
    if (box) replace(box, seatNotes(seat, message));
  }
  const count = document.getElementById("spectator-count");
  if (count) count.textContent = message.table.spectators ? t("spectators", { count: message.table.spectators }) : "";
}

export function topBar(message, heading) {
  const { view } = message;
  const scores = view ? el("ol", { class: "scoreboard", "aria-label": t("scores_heading") },
    message.table.seats.map((seat) => el("li", { class: seat.seat === message.you ? "mine" : "" },
      el("span", { class: "sb-name", title: seat.name || null }, seat.seat === message.you ? t("seat_you_short") : shortName(seat)),
      el("span", { class: "sb-score" }, String(view.scores[seat.seat]))))) : null;
  return el("div", { class: "table-bar" },
    el("h1", { id: "status", class: "table-heading" }, heading),
    scores,
    view ? el("p", { class: "target" }, t("target", { target: view.target })) : null,
    view && message.you !== null ? soundButton() : null,
    el("p", { id: "connection", class: "connection", hidden: true, role: "status" }),
    el("p", { id: "errors", role: "alert", class: "errors" }));
}

/** A bot's seat in a chip: "Bot 2" (its strength is on its panel); a person's name as it is. */
function shortName(seat) {
  if (!seat.name) return t("seat_free");
  return seat.kind === "bot" ? seat.name.replace(/\s*\(.*\)\s*$/, "") || seat.name : seat.name;
}

/** A bot's name with its strength in brackets kept apart, so narrow panels may drop it. */
export function opponentName(seat) {
  const full = seat.name || t("seat_free");
  const short = shortName(seat);
  if (seat.kind !== "bot" || short === full || !full.startsWith(short)) return el("span", { class: "opp-name" }, full);
  return el("span", { class: "opp-name" }, short, el("span", { class: "name-rest" }, full.slice(short.length)));
}

export function avatar(seat) {
  if (seat.kind === "bot") return el("span", { class: "avatar bot", "aria-hidden": "true" }, icon("robot"));
  return el("span", { class: "avatar", "aria-hidden": "true" }, (seat.name || "?").slice(0, 1).toUpperCase());
}

/** The beep on this seat's turn: an icon-sized switch, pressed when the sound is on. */
function soundButton() {
  const on = soundOn();
  return el("button", {
    type: "button", class: "button sound icon", "data-focus": "sound", "aria-pressed": String(on),
    "aria-label": t("sound"), title: on ? t("sound_on") : t("sound_off"),
    onclick: () => {
      const now = !soundOn();
      setSound(now);
      const button = document.querySelector('[data-focus="sound"]');
      button.setAttribute("aria-pressed", String(now));
      button.title = now ? t("sound_on") : t("sound_off");
      button.replaceChildren(icon(now ? "sound-on" : "sound-off"));
      if (now) beep();
    },
  }, icon(on ? "sound-on" : "sound-off"));
}

export function hintTag() {
  return el("span", { class: "hint-tag" }, t("hint_label"));
}

/** The clock of the seat to move on a table with one: the seconds left, counting down on
 * the page; or the notice that its time ran out and the bot makes the move. */
export function clockOf(message, seat) {
  const clock = message.table.clock;
  if (!clock) return null;
  if (clock.timed_out === seat) {
    const text = seat === message.you ? t("clock_ran_out_you")
      : t("clock_ran_out", { name: message.table.seats[seat].name });
    return el("span", { class: "clock ran-out", "data-clock-seat": String(seat), role: "status" }, text);
  }
  if (clock.seat !== seat || clock.seconds_left === null) return null;
  const deadline = Date.now() + clock.seconds_left * 1000;
  return el("span", { class: "clock", "data-clock-seat": String(seat), "data-deadline": String(deadline) },
    t("clock_left", { seconds: Math.ceil(clock.seconds_left) }));
}

window.setInterval(() => {
  for (const node of document.querySelectorAll(".clock[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Number(node.dataset.deadline) - Date.now()) / 1000));
    node.textContent = t("clock_left", { seconds: left });
    node.classList.toggle("low", left <= 5);
  }
}, 500);

/** Said for as long as the match lasts: how often the bot moved for you at the clock,
 * and while you were away (you have your seat back as soon as you are here). */
export function clockNote(message) {
  const you = message.you;
  if (you === null) return null;
  const clock = message.table.clock;
  const timed = clock ? clock.bot_moves[you] : 0;
  const away = (message.table.away_moves || [])[you] || 0;
  const notes = [];
  if (timed) notes.push(timed === 1 ? t("clock_bot_moves_one") : t("clock_bot_moves_many", { count: timed }));
  if (away) notes.push(away === 1 ? t("away_bot_moves_one") : t("away_bot_moves_many", { count: away }));
  if (!notes.length) return null;
  return el("p", { id: "clock-note", class: "clock-note muted" }, notes.join(" "));
}
