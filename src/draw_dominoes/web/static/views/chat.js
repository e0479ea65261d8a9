// Quick chat: a few set phrases, shown for a few seconds at the seat that said them, with a
// mute per player (kept in this browser). No free text: nothing to moderate.

import { el, t, announce } from "../core.js";

export const PHRASES = ["hello", "good_game", "well_played", "thanks", "oops", "one_moment"];
const SHOWN_SECONDS = 8;
let announced = "";
let barOpen = false;  // the phrases stay unfolded across redraws

function mutedKey(message) { return `dd_muted_${message.table.id}`; }

function muted(message) {
  try { return new Set(JSON.parse(localStorage.getItem(mutedKey(message)) || "[]")); } catch { return new Set(); }
}

function latest(message, seat) {
  const said = (message.table.chat || []).filter((c) => c.seat === seat && c.age < SHOWN_SECONDS);
  return said.length ? said[said.length - 1] : null;
}

/** What ``seat`` said last, while it is fresh and the seat is not muted here. */
export function chatBubble(message, seat) {
  const said = latest(message, seat);
  if (!said || muted(message).has(seat)) return null;
  const text = t(`chat_${said.phrase}`);
  const key = `${message.table.id}:${seat}:${said.phrase}:${Math.round(Date.now() / 1000 - said.age)}`;
  if (key !== announced && said.age < 2) {
    announced = key;
    announce(t("chat_said", { name: message.table.seats[seat].name, phrase: text }));
  }
  const bubble = el("p", { class: "chat-bubble", "data-chat-seat": String(seat) }, text);
  window.setTimeout(() => bubble.remove(), Math.max(0, SHOWN_SECONDS - said.age) * 1000);
  return bubble;
}

/** Mute or unmute one person's phrases, in this browser. */
export function muteButton(ctrl, seat) {
  const message = ctrl.state;
  const info = message.table.seats[seat];
  if (info.kind !== "human" || seat === message.you) return null;
  const off = muted(message).has(seat);
  return el("button", {
    type: "button", class: "link-button mute", "data-mute": String(seat), "aria-pressed": String(off),
    onclick: () => {
      const set = muted(message);
      if (off) set.delete(seat); else set.add(seat);
      localStorage.setItem(mutedKey(message), JSON.stringify([...set]));
      ctrl.redraw();
    },
  }, t(off ? "chat_unmute" : "chat_mute", { name: info.name }));
}

/** The phrases a seated player may say, folded away until asked for. */
export function chatBar(ctrl) {
  const bar = el("details", { id: "chat", class: "chat", open: barOpen },
    el("summary", {}, t("chat_label")),
    el("div", { class: "chat-phrases" }, PHRASES.map((phrase) => el("button", {
      type: "button", class: "button small", "data-phrase": phrase, onclick: () => ctrl.chat(phrase),
    }, t(`chat_${phrase}`)))));
  bar.addEventListener("toggle", () => { barOpen = bar.open; });
  return bar;
}
