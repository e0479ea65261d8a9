// The match's end: who won in one sentence, the final scores, the rematch, links to the
// replay, the review and the record, and the last round below.

import { el, t, listNames } from "../core.js";
import { topBar } from "./common.js";
import { renderLog, renderSheet } from "./log.js";
import { roundFacts, finalLine, renderHands } from "./round_end.js";

/** Who resigned, said before the result: "You resigned." or "Ann resigned." */
function resignedSentence(ctrl) {
  const { result, you } = ctrl.state;
  const resigned = result.resigned || [];
  if (!resigned.length) return "";
  if (you !== null && resigned.includes(you)) return t("result_you_resigned");
  return t("result_resigned", { names: listNames(resigned.map((seat) => ctrl.names()[seat])) });
}

function resultSentence(ctrl) {
  const message = ctrl.state;
  const { result, you } = message;
  const seatNames = ctrl.names();
  if (result.given_up) {  // cut short: who is left wins, no score line to quote
    const names = listNames((result.winners || []).map((seat) => seatNames[seat]));
    return t("result_given_up", { names });
  }
  const scores = result.scores || (message.view ? message.view.scores : []);
  const winners = result.winners || [];
  const best = Math.max(...scores);
  const others = scores.map((s, i) => [s, i]).filter(([, i]) => !winners.includes(i)).map(([s]) => s);
  const runnerUp = others.length ? Math.max(...others) : best;
  if (result.is_draw) {
    if (you !== null && winners.includes(you)) {
      const rest = winners.filter((w) => w !== you).map((w) => seatNames[w]).join(", ");
      return t("result_draw_you", { names: rest, score: best });
    }
    return t("result_draw", { names: winners.map((w) => seatNames[w]).join(", "), score: best });
  }
  const winner = winners[0];
  if (you !== null && winner === you) return t("result_you_won", { score: best, other: runnerUp });
  // Every reader sees the same result: the winner against the best of the rest.
  const facts = { name: seatNames[winner], score: best, other: runnerUp };
  if (you !== null && scores[you] !== runnerUp) return t("result_other_won_you", { ...facts, mine: scores[you] });
  return t("result_other_won", facts);
}

export function renderMatchEnd(ctrl) {
  const message = ctrl.state;
  const { table: info, you } = message;
  const seatNames = ctrl.names();
  const scores = message.result.scores || message.view.scores;
  const resigned = message.result.resigned || [];
  // Ranked by score, but a seat that resigned finishes last (W4).
  const ranked = scores.map((score, seat) => ({ score, seat, out: resigned.includes(seat) }))
    .sort((a, b) => a.out - b.out || b.score - a.score);
  const wrap = el("div", { class: "match-page" });
  wrap.append(topBar(message, t("status_over", { number: info.match_number })));
  const card = el("section", { id: "result", class: "card match-end", "aria-labelledby": "result-text" },
    el("h2", { id: "result-text", class: "result-sentence" }, resultSentence(ctrl)),
    resigned.length ? el("p", { id: "resigned-text", class: "resigned-sentence" }, resignedSentence(ctrl)) : null,
    el("ol", { id: "final-scores", class: "final-scores" }, ranked.map(({ score, seat, out }) => el("li", {
      class: message.result.winners.includes(seat) ? "winner" : "",
    }, el("span", { class: "fs-name" }, seat === you ? t("seat_you_name", { name: seatNames[seat] }) : seatNames[seat]),
    out ? el("span", { class: "badge resigned" }, t("resigned_tag")) : null,
    el("span", { class: "fs-score" }, String(score))))));
  const rematch = message.rematch;
  const rematchBox = el("div", { class: "rematch" });
  if (you !== null) {
    const accepted = rematch ? rematch.accepted.includes(you) : false;
    rematchBox.append(el("button", {
      type: "button", class: "button primary big", "data-action": "rematch", id: "rematch-button",
      "aria-disabled": accepted ? "true" : null,
      onclick: () => { if (!accepted) ctrl.rematch(); },
    }, accepted ? t("rematch_accepted") : t("rematch_button")));
  }
  rematchBox.append(el("p", { id: "rematch-status", class: "muted", role: "status" }, rematchText(ctrl)));
  card.append(rematchBox);
  const last = info.match_number - 1;
  if (!message.result.given_up) card.append(el("p", { class: "links" },
    el("a", { href: `/t/${info.id}/replay/${last}`, id: "replay-link", class: "button" }, t("replay_this")),
    el("a", { href: `/t/${info.id}/replay/${last}#review`, id: "review-link", class: "button" }, t("review_button")),
    el("a", { href: `/api/tables/${info.id}/matches/${last}/record`, download: "", id: "download-record", class: "button ghost" }, t("download_record"))));
  const earlier = (info.finished_matches || []).filter((n) => n !== last);
  if (earlier.length) {
    card.append(el("p", { class: "muted earlier" }, t("earlier_matches"), " ",
      earlier.map((n) => el("a", { href: `/t/${info.id}/replay/${n}` }, t("replay_link", { number: n + 1 })))));
  }
  if (info.rated) card.append(ratingChanges(info.id, last, you));
  wrap.append(card);
  const below = el("div", { class: "below" });
  if (message.last_round) {
    const facts = roundFacts(message);
    below.append(el("section", { class: "card last-round", "aria-labelledby": "round-over-heading" },
      el("h2", { id: "round-over-heading" }, t("round_over_heading", { number: facts.summary.number })),
      el("p", { id: "round-explanation", class: "settle" }, facts.explanation),
      finalLine(facts), renderHands(message, facts)));
  }
  // A match given up before its first round ended has no sheet or moves to show.
  if (message.rounds.length) below.append(renderSheet(ctrl), renderLog(ctrl));
  wrap.append(below);
  return wrap;
}

/** Who wants a rematch and whom it waits for; nothing before anybody asked. */
function rematchText(ctrl) {
  const message = ctrl.state;
  const { rematch, you } = message;
  if (!rematch || !rematch.accepted.length) return "";
  const seatNames = ctrl.names();
  const human = (seat) => message.table.seats[seat] && message.table.seats[seat].kind !== "bot";
  const accepted = rematch.accepted.filter(human);
  const waiting = rematch.needed.filter((seat) => !rematch.accepted.includes(seat));
  const others = accepted.filter((seat) => seat !== you).map((seat) => seatNames[seat]);
  const waitingNames = listNames(waiting.filter((seat) => seat !== you).map((seat) => seatNames[seat]));
  if (!waiting.length) return t("rematch_starting");
  if (you !== null && rematch.accepted.includes(you)) {
    return others.length
      ? t("rematch_you_and_waiting", { names: listNames(others), waiting: waitingNames })
      : t("rematch_you_waiting", { waiting: waitingNames });
  }
  if (!others.length) return "";
  const wants = t(others.length === 1 ? "rematch_wants_one" : "rematch_wants_many", { names: listNames(others) });
  const rest = waiting.filter((seat) => seat !== you);
  return you === null && rest.length ? `${wants} ${t("rematch_waiting", { names: waitingNames })}` : wants;
}

const changesAsked = new Map();

/** The changes of a rated match, asked for once a match (they are stored a moment after
 * its end): a promise of the list, empty if none came. */
function fetchChanges(tableId, number) {
  const key = `${tableId}/${number}`;
  if (!changesAsked.has(key)) {
    changesAsked.set(key, (async () => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        try {
          const response = await fetch(`/api/tables/${tableId}/matches/${number}/ratings`);
          const changes = response.ok ? (await response.json()).changes : [];
          if (changes.length) return changes;
        } catch { /* try again */ }
        await new Promise((done) => window.setTimeout(done, 700));
      }
      return [];
    })());
  }
  return changesAsked.get(key);
}

/** A rated match's rating changes: yours first, then the others'. */
function ratingChanges(tableId, number, you) {
  const box = el("div", { id: "rating-changes", class: "rating-changes", role: "status" }, t("rating_waiting"));
  const sign = (n) => (n > 0 ? `+${n}` : String(n));
  const shown = (change) => `${change.after}${change.provisional ? "?" : ""}`;
  fetchChanges(tableId, number).then((changes) => {
    if (!changes.length) { box.textContent = t("rating_none"); return; }
    const mine = changes.find((change) => change.seat === you);
    box.replaceChildren(
      mine ? el("p", { class: "rating-mine", "data-rating-change": String(mine.change) },
        t("rating_yours", { before: mine.before, after: shown(mine), change: sign(mine.change) })) : "",
      el("ul", { class: "rating-list" }, changes.filter((change) => change.seat !== you).map((change) =>
        el("li", {}, t("rating_other", { name: change.username, after: shown(change), change: sign(change.change) })))));
  });
  return box;
}
