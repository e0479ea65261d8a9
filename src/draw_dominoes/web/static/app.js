// draw-dominoes in the browser: renders what the server sends and sends back intents; the
// server alone decides what is legal (R8) and what each seat may see (R21).
"use strict";

(() => {
  const body = document.body;
  const app = {
    lang: body.dataset.lang || "en",
    messages: {},
    tableId: null,
    token: null,
    socket: null,
    state: null,
    selected: null,
    dismissedRound: 0,
    log: [],
    replay: null,
    retry: 0,
    nextId: 1,
  };

  // ------------------------------------------------------------ helpers

  function t(key, values = {}) {
    const template = app.messages["web." + key];
    if (template === undefined) return key;
    return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : ""));
  }

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function tileImage(tile, { vertical = false, size = 40 } = {}) {
    const src = tile ? `/tile/${tile.slice(1, -1).replace("|", "-")}.svg` : "/tile/back.svg";
    return el("img", {
      src: `${src}?size=${size}${vertical ? "&v=1" : ""}`,
      alt: tile || "",
      class: "tile-img",
      draggable: "false",
    });
  }

  function levelName(level) {
    const key = "level_" + level;
    return app.messages["web." + key] ? t(key) : level;
  }

  function announce(text, { remember = true } = {}) {
    if (!text) return;
    const live = document.getElementById("live");
    live.textContent = "";
    window.setTimeout(() => { live.textContent = text; }, 30);
    if (!remember) return;
    app.log.unshift(text);
    app.log = app.log.slice(0, 8);
  }

  function showError(text) {
    const box = document.getElementById("errors");
    if (box) box.textContent = text;
  }

  function lineWidth() {
    return Math.max(320, Math.min(window.innerWidth - 48, 1120));
  }

  async function loadMessages(lang) {
    const response = await fetch(`/api/i18n/${lang}`);
    app.messages = await response.json();
  }

  function remember(lang) {
    localStorage.setItem("lang", lang);
    document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=strict`;
  }

  async function setLang(lang) {
    remember(lang);
    if (body.dataset.page === "howto") {
      window.location.search = `?lang=${lang}`;
      return;
    }
    app.lang = lang;
    document.documentElement.lang = lang;
    await loadMessages(lang);
    translateChrome();
    if (app.socket && app.socket.readyState === WebSocket.OPEN) {
      send({ type: "hello", lang, width: lineWidth() });
    } else {
      route();
    }
    if (app.replay) showReplayStep(app.replay.step);
  }

  function translateChrome() {
    document.title = t("app_title");
    const pairs = [["nav-home", "nav_home"], ["nav-howto", "nav_howto"]];
    for (const [id, key] of pairs) {
      const link = document.getElementById(id);
      if (link) link.textContent = t(key);
    }
    const brand = document.querySelector(".brand");
    if (brand) brand.textContent = t("app_title");
    const select = document.getElementById("lang-select");
    if (select) {
      select.value = app.lang;
      select.previousSibling.textContent = t("language");
    }
  }

  // ------------------------------------------------------------ lobby

  function renderLobby() {
    const root = document.getElementById("app");
    const offered = app.offered || [];
    const seatRows = el("div", { id: "seat-choices" });
    const players = el("select", { id: "players", name: "players" },
      [2, 3, 4].map((n) => el("option", { value: n, selected: n === 3 }, String(n))));
    function drawSeats() {
      seatRows.replaceChildren();
      for (let seat = 1; seat < Number(players.value); seat += 1) {
        const id = `seat-${seat}`;
        seatRows.append(el("p", {},
          el("label", { for: id }, t("seat_label", { number: seat + 1 }) + " "),
          el("select", { id },
            el("option", { value: "" }, t("seat_open")),
            offered.map((level, i) => el("option", { value: level, selected: i === 1 || (offered.length === 1 && i === 0) },
              t("seat_bot", { level: levelName(level) }))))));
      }
    }
    players.addEventListener("change", drawSeats);
    drawSeats();
    const form = el("form", { id: "create-form", onsubmit: createTable },
      el("h1", { text: t("create_heading") }),
      el("p", {}, el("label", { for: "name" }, t("your_name") + " "),
        el("input", { id: "name", name: "name", required: true, maxlength: 24, value: localStorage.getItem("name") || "" })),
      el("p", {}, el("label", { for: "players" }, t("players_label") + " "), players),
      seatRows,
      el("p", {}, el("button", { type: "submit", id: "create-button" }, t("create_button"))),
      el("p", { id: "errors", role: "alert" }));
    root.replaceChildren(form);
  }

  async function createTable(event) {
    event.preventDefault();
    const name = document.getElementById("name").value.trim();
    localStorage.setItem("name", name);
    const players = Number(document.getElementById("players").value);
    const bots = {};
    for (let seat = 1; seat < players; seat += 1) {
      const level = document.getElementById(`seat-${seat}`).value;
      if (level) bots[String(seat)] = level;
    }
    const request = { players, name, bots };
    const seed = new URLSearchParams(window.location.search).get("seed");
    if (seed !== null && /^\d+$/.test(seed)) request.seed = Number(seed);
    const response = await fetch(`/api/tables?lang=${app.lang}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
    const data = await response.json();
    if (!response.ok) { showError(data.message); return; }
    localStorage.setItem(`dd_token_${data.table_id}`, data.token);
    window.location.assign(data.url);
  }

  // ------------------------------------------------------------ the table

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams({ lang: app.lang, width: String(lineWidth()) });
    if (app.token) params.set("token", app.token);
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/${app.tableId}?${params}`);
    app.socket = socket;
    socket.addEventListener("open", () => { app.retry = 0; });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        app.state = message;
        renderTable();
        if (message.announce) announce(message.announce);
      } else if (message.type === "presence") {
        // Comings and goings: only who is connected changes, not the game.
        // Only the seat list is redrawn, so nothing being typed or focused is lost.
        if (app.state) {
          app.state.table.seats.forEach((seat, i) => { seat.connected = message.connected[i]; });
          app.state.table.spectators = message.spectators;
          const seats = document.querySelector("#app section.seats");
          if (seats) seats.replaceWith(renderSeats(app.state));
        }
      } else if (message.type === "error") {
        showError(message.message);
        announce(message.message);
      }
    });
    socket.addEventListener("close", () => {
      if (app.socket !== socket) return;
      const status = document.getElementById("connection");
      if (status) status.textContent = t("connection_lost");
      app.retry = Math.min(app.retry + 1, 5);
      window.setTimeout(connect, 300 * app.retry);
    });
  }

  function send(message) {
    if (!app.socket || app.socket.readyState !== WebSocket.OPEN) return;
    showError("");
    app.socket.send(JSON.stringify({ ...message, id: app.nextId++ }));
  }

  function act(action) {
    app.selected = null;
    send({ type: "action", action });
  }

  function legal() {
    return (app.state && app.state.view && app.state.view.legal_actions) || [];
  }

  function fitsOf(tile) {
    // The ends the tile may go to: "0", "1", or "open" for the opening.
    const ends = [];
    for (const action of legal()) {
      if (action === tile) ends.push("open");
      else if (action.startsWith(tile + "@")) ends.push(action.slice(tile.length + 1));
    }
    return ends;
  }

  function actionFor(tile, end) {
    return end === "open" ? tile : `${tile}@${end}`;
  }

  function endName(end) {
    return end === "open" ? t("line_empty") : t(`end_${end}`);
  }

  function endValue(end) {
    const ends = app.state.view.line.ends;
    const found = ends.find((e) => String(e.end) === String(end));
    return found ? found.value : "";
  }

  function select(tile) {
    app.selected = app.selected === tile ? null : tile;
    renderTable();
    if (app.selected) {
      const ends = fitsOf(app.selected);
      announce(ends.length
        ? t("selected", { tile: app.selected, ends: ends.map(endName).join(", ") })
        : t("fits_nowhere", { tile: app.selected }), { remember: false });
    }
  }

  function placeAt(end) {
    if (!app.selected) return;
    if (fitsOf(app.selected).includes(String(end))) act(actionFor(app.selected, String(end)));
  }

  function focusKey() {
    const active = document.activeElement;
    return active && active.id ? active.id : null;
  }

  function restoreFocus(id) {
    if (!id) return;
    const node = document.getElementById(id);
    if (node) node.focus({ preventScroll: true });
  }

  function seatName(seat) {
    const info = app.state.table.seats[seat];
    return info.name || t("seat_free");
  }

  function renderTable() {
    const message = app.state;
    if (!message) return;
    const focused = focusKey();
    const typed = document.getElementById("join-name");  // a name being typed survives
    if (typed) app.typedName = typed.value;
    const { table, view, you } = message;
    const root = document.getElementById("app");
    const parts = [];
    const statusKey = { lobby: "status_lobby", playing: "status_playing", over: "status_over" }[table.status];
    parts.push(el("h1", { id: "status" }, t(statusKey, { number: table.match_number })));
    parts.push(el("p", { id: "connection", class: "connection" }));
    parts.push(el("p", { id: "errors", role: "alert", class: "errors" }));
    if (you === null) parts.push(el("p", { id: "spectating" }, t("spectating")));
    parts.push(renderSeats(message));
    if (table.status === "lobby") parts.push(renderLobbyControls(message));
    if (view) {
      parts.push(renderBoard(message));
      if (message.last_round && message.last_round.number > app.dismissedRound) {
        parts.push(renderRoundOver(message.last_round));
      }
      if (message.rounds.length) parts.push(renderSheet(message));
    }
    if (message.result) parts.push(renderResult(message));
    if (table.finished_matches.length) {
      parts.push(el("ul", { id: "replays" }, table.finished_matches.map((n) => el("li", {},
        el("a", { href: `/t/${table.id}/replay/${n}` }, t("replay_link", { number: n + 1 })), " · ",
        el("a", { href: `/api/tables/${table.id}/matches/${n}/record`, download: "" }, t("download_record"))))));
    }
    parts.push(el("section", { "aria-labelledby": "log-heading", class: "log" },
      el("h2", { id: "log-heading", class: "visually-hidden" }, "log"),
      el("ol", { id: "log" }, app.log.map((line) => el("li", {}, line)))));
    root.replaceChildren(...parts);
    // Plain facts for scripts and tests: what is shown was sent by the server.
    root.dataset.seq = String(message.seq);
    root.dataset.status = table.status;
    root.dataset.myTurn = String(Boolean(view && table.status === "playing" && you !== null && view.current_player === you));
    decorateLine();
    restoreFocus(focused);
  }

  function renderSeats(message) {
    const { table, view, you } = message;
    const current = view && table.status === "playing" ? view.current_player : null;
    return el("section", { "aria-labelledby": "seats-heading", class: "seats" },
      el("h2", { id: "seats-heading" }, t("seats_heading")),
      el("ul", { id: "seat-list" }, table.seats.map((seat) => {
        const notes = [];
        if (seat.seat === you) notes.push(t("seat_you"));
        if (seat.kind === "bot") notes.push(t("seat_bot", { level: levelName(seat.level) }));
        if (seat.kind === "human" && !seat.connected) notes.push(t("seat_offline"));
        const count = view ? view.hand_sizes[seat.seat] : null;
        const backs = view && seat.seat !== you
          ? el("span", { class: "backs", "aria-hidden": "true" },
            Array.from({ length: count }, () => tileImage(null, { size: 18, vertical: true })))
          : null;
        return el("li", { id: `seat-${seat.seat}-info`, class: seat.seat === current ? "to-move" : "" },
          el("strong", {}, `${seat.seat + 1}. ${seat.name || t("seat_free")}`),
          notes.length ? ` (${notes.join(", ")})` : "",
          view ? ` — ${t("tiles_count", { count })}` : "",
          view ? ` — ${t("seat_score", { score: view.scores[seat.seat] })}` : "",
          backs);
      })));
  }

  function renderLobbyControls(message) {
    const { table, you } = message;
    const box = el("section", { id: "lobby", class: "lobby" });
    const invite = `${window.location.origin}/t/${table.id}`;
    box.append(el("p", {}, el("label", { for: "invite-link" }, t("invite_text")), " ",
      el("input", { id: "invite-link", readonly: true, value: invite, size: 40 })));
    if (you !== null && app.token) {
      box.append(el("p", {}, el("label", { for: "seat-link" }, t("your_link")), " ",
        el("input", { id: "seat-link", readonly: true, value: `${invite}?token=${app.token}`, size: 60 })));
    }
    const open = table.seats.filter((s) => s.kind === "open");
    if (you === null && open.length) {
      box.append(el("form", { id: "join-form", onsubmit: joinTable },
        el("h2", { text: t("join_heading") }),
        el("label", { for: "join-name" }, t("your_name") + " "),
        el("input", { id: "join-name", required: true, maxlength: 24, value: app.typedName ?? (localStorage.getItem("name") || "") }),
        " ", el("button", { type: "submit", id: "join-button" }, t("join_button"))));
    }
    if (you === table.host_seat) {
      for (const seat of table.seats) {
        if (seat.kind === "human") continue;
        const id = `configure-${seat.seat}`;
        box.append(el("p", {}, el("label", { for: id }, t("seat_label", { number: seat.seat + 1 }) + " "),
          el("select", {
            id,
            onchange: (event) => send({ type: "seat", seat: seat.seat, level: event.target.value || null }),
          },
          el("option", { value: "", selected: seat.kind === "open" }, t("seat_open")),
          table.bots_offered.map((level) => el("option", { value: level, selected: seat.level === level },
            t("seat_bot", { level: levelName(level) }))))));
      }
      box.append(el("p", {}, el("button", {
        id: "start-button", type: "button", disabled: open.length > 0, onclick: () => send({ type: "start" }),
      }, t("start_button"))));
      if (open.length) box.append(el("p", {}, t("waiting_seats")));
    } else if (you !== null) {
      box.append(el("p", {}, t("waiting_host")));
    }
    return box;
  }

  async function joinTable(event) {
    event.preventDefault();
    const name = document.getElementById("join-name").value.trim();
    localStorage.setItem("name", name);
    const response = await fetch(`/api/tables/${app.tableId}/join?lang=${app.lang}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name }),
    });
    const data = await response.json();
    if (!response.ok) { showError(data.message); return; }
    app.token = data.token;
    localStorage.setItem(`dd_token_${app.tableId}`, data.token);
    const old = app.socket;
    app.socket = null;
    if (old) old.close();
    connect();
  }

  function renderBoard(message) {
    const { view, you, table } = message;
    const board = el("section", { id: "board", "aria-labelledby": "line-heading" });
    const myTurn = table.status === "playing" && you !== null && view.current_player === you;
    const turnText = table.status !== "playing" ? ""
      : myTurn ? t("your_turn") : t("turn_of", { name: seatName(view.current_player) });
    board.append(el("p", { id: "turn", class: myTurn ? "my-turn" : "" }, turnText));
    board.append(el("p", { id: "boneyard" }, t("boneyard", { size: view.boneyard_size, drawable: view.drawable }),
      " · ", t("target", { target: view.target })));
    board.append(el("h2", { id: "line-heading" }, t("line_heading")));
    const line = el("div", { id: "line", class: "line" });
    if (message.line_svg) line.innerHTML = message.line_svg;
    else line.textContent = message.line_description;
    board.append(line);
    if (you === null) return board;
    const legalActions = legal();
    const hand = el("div", { id: "hand", role: "group", "aria-label": t("hand_label") },
      view.hand.map((tile) => {
        const ends = fitsOf(tile);
        const id = `tile-${tile.slice(1, -1).replace("|", "-")}`;
        return el("button", {
          type: "button",
          id,
          class: `tile${ends.length ? " fits" : ""}${app.selected === tile ? " selected" : ""}`,
          "data-tile": tile,
          "aria-pressed": app.selected === tile ? "true" : "false",
          "aria-label": tile,
          draggable: ends.length ? "true" : "false",
          onclick: () => select(tile),
          ondragstart: (event) => {
            event.dataTransfer.setData("text/plain", tile);
            app.selected = tile;
            highlightMarkers();
          },
        }, tileImage(tile, { vertical: true, size: 36 }));
      }));
    board.append(el("h2", { id: "hand-heading" }, t("hand_label")), hand);
    const buttons = el("div", { id: "actions", class: "actions" });
    if (app.selected && view.hand.includes(app.selected)) {
      for (const end of fitsOf(app.selected)) {
        const label = end === "open" ? t("place_open", { tile: app.selected })
          : t("place_at", { end: t(`end_${end}`), value: endValue(end) });
        buttons.append(el("button", { type: "button", id: `place-${end}`, onclick: () => act(actionFor(app.selected, end)) }, label));
      }
    }
    if (legalActions.includes("draw")) {
      buttons.append(el("button", { type: "button", id: "draw-button", onclick: () => act("draw") }, t("draw_button")));
    }
    if (legalActions.includes("pass")) {
      buttons.append(el("button", { type: "button", id: "pass-button", onclick: () => act("pass") }, t("pass_button")));
    }
    board.append(buttons);
    if (myTurn) board.append(el("p", { class: "hint" }, t("select_hint")));
    return board;
  }

  function decorateLine() {
    const line = document.getElementById("line");
    if (!line) return;
    for (const marker of line.querySelectorAll(".port-marker")) {
      const end = marker.getAttribute("data-end");
      marker.setAttribute("id", `marker-${end}`);
      marker.setAttribute("tabindex", "0");
      marker.setAttribute("role", "button");
      marker.setAttribute("aria-label", end === "open" ? t("line_empty")
        : `${t(`end_${end}`)} (${endValue(end)})`);
      marker.addEventListener("click", () => placeAt(end));
      marker.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); placeAt(end); }
      });
      marker.addEventListener("dragover", (event) => {
        if (app.selected && fitsOf(app.selected).includes(end)) event.preventDefault();
      });
      marker.addEventListener("drop", (event) => {
        event.preventDefault();
        const tile = event.dataTransfer.getData("text/plain") || app.selected;
        if (tile && fitsOf(tile).includes(end)) act(actionFor(tile, end));
      });
    }
    highlightMarkers();
  }

  function highlightMarkers() {
    const ends = app.selected ? fitsOf(app.selected) : [];
    for (const marker of document.querySelectorAll("#line .port-marker")) {
      marker.classList.toggle("highlight", ends.includes(marker.getAttribute("data-end")));
    }
  }

  function renderRoundOver(summary) {
    const names = app.state.table.seats.map((s) => s.name);
    const box = el("section", { id: "round-over", class: "round-over", "aria-labelledby": "round-over-heading" },
      el("h2", { id: "round-over-heading" }, t("round_over_heading", { number: summary.number })),
      el("p", { id: "round-explanation" }, summary.explanation),
      el("h3", {}, t("revealed_heading")),
      el("ul", { id: "revealed" }, summary.revealed_hands.map((hand, seat) => el("li", {},
        el("span", { class: "who" }, `${names[seat]} (${summary.pip_totals[seat]}): `),
        hand.length ? hand.map((tile) => tileImage(tile, { size: 26, vertical: true })) : "—"))),
      el("button", { type: "button", id: "dismiss-round", onclick: () => { app.dismissedRound = summary.number; renderTable(); } }, t("dismiss")));
    return box;
  }

  function renderSheet(message) {
    const names = message.table.seats.map((s) => s.name);
    return el("section", { "aria-labelledby": "sheet-heading" },
      el("h2", { id: "sheet-heading" }, t("sheet_heading")),
      el("table", { id: "score-sheet" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("sheet_round")),
          names.map((name) => el("th", { scope: "col" }, name)), el("th", { scope: "col" }, t("sheet_result")))),
        el("tbody", {}, message.rounds.map((row) => el("tr", {},
          el("th", { scope: "row" }, String(row.number)),
          row.scores.map((score, seat) => el("td", {}, row.credits[seat] ? `${score} (+${row.credits[seat]})` : String(score))),
          el("td", {}, row.explanation))))));
  }

  function renderResult(message) {
    const { result, you, table } = message;
    return el("section", { id: "result", "aria-labelledby": "result-heading" },
      el("h2", { id: "result-heading" }, t("result_heading")),
      el("p", { id: "result-text" }, result.text),
      you !== null ? el("button", { type: "button", id: "rematch-button", onclick: () => send({ type: "rematch" }) }, t("rematch_button")) : null,
      " ",
      el("a", { id: "download-record", href: `/api/tables/${table.id}/matches/${table.match_number - 1}/record`, download: "" }, t("download_record")));
  }

  // ------------------------------------------------------------ replay

  async function showReplayStep(step) {
    const { tableId, number } = app.replay;
    const response = await fetch(`/api/tables/${tableId}/matches/${number}/replay/${step}?lang=${app.lang}&width=${lineWidth()}`);
    const data = await response.json();
    const root = document.getElementById("app");
    if (!response.ok) { root.replaceChildren(el("p", { role: "alert", id: "errors" }, data.message)); return; }
    app.replay.step = data.step;
    app.replay.total = data.total;
    const focused = focusKey();
    const go = (target) => showReplayStep(Math.max(0, Math.min(data.total, target)));
    const line = el("div", { id: "line", class: "line" });
    if (data.line_svg) line.innerHTML = data.line_svg; else line.textContent = data.line_description;
    root.replaceChildren(
      el("h1", {}, t("replay_heading", { number: number + 1 })),
      el("p", { id: "replay-step" }, t("replay_step", { step: data.step, total: data.total, round: data.round })),
      el("p", { class: "hint" }, t("replay_keys")),
      el("div", { class: "actions" },
        el("button", { type: "button", id: "replay-first", onclick: () => go(0) }, t("replay_first")),
        el("button", { type: "button", id: "replay-prev", onclick: () => go(data.step - 1) }, t("replay_prev")),
        el("button", { type: "button", id: "replay-next", onclick: () => go(data.step + 1) }, t("replay_next")),
        el("button", { type: "button", id: "replay-last", onclick: () => go(data.total) }, t("replay_last"))),
      el("p", { id: "replay-announce" }, data.announce || ""),
      line,
      el("p", {}, t("boneyard", { size: data.boneyard_size, drawable: Math.max(0, data.boneyard_size - 2) })),
      el("ul", { id: "replay-hands" }, data.hands.map((hand, seat) => el("li", {},
        el("span", { class: "who" }, `${data.names[seat]} (${data.scores[seat]}): `),
        hand.map((tile) => tileImage(tile, { size: 26, vertical: true }))))),
      data.explanation ? el("p", { id: "replay-explanation" }, data.explanation) : null,
      el("p", {}, el("a", { href: `/api/tables/${tableId}/matches/${number}/record`, download: "" }, t("download_record")),
        " · ", el("a", { href: `/t/${tableId}` }, t("nav_home"))));
    if (data.announce) announce(data.announce);
    restoreFocus(focused);
  }

  // ------------------------------------------------------------ start

  function route() {
    const path = window.location.pathname;
    let match = path.match(/^\/t\/([\w-]+)\/replay\/(\d+)$/);
    if (match) {
      app.replay = { tableId: match[1], number: Number(match[2]), step: 0 };
      showReplayStep(0);
      return;
    }
    match = path.match(/^\/t\/([\w-]+)$/);
    if (match) {
      app.tableId = match[1];
      const params = new URLSearchParams(window.location.search);
      const token = params.get("token");
      if (token) {
        localStorage.setItem(`dd_token_${app.tableId}`, token);
        window.history.replaceState(null, "", window.location.pathname);
      }
      app.token = localStorage.getItem(`dd_token_${app.tableId}`);
      if (!app.socket) connect();
      else renderTable();
      return;
    }
    renderLobby();
  }

  document.addEventListener("keydown", (event) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName);
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (app.replay && app.replay.total !== undefined) {
      if (event.key === "ArrowRight") showReplayStep(Math.min(app.replay.total, app.replay.step + 1));
      if (event.key === "ArrowLeft") showReplayStep(Math.max(0, app.replay.step - 1));
      return;
    }
    if (!app.state) return;
    if (event.key === "d" && legal().includes("draw")) act("draw");
    if (event.key === "p" && legal().includes("pass")) act("pass");
    if (event.key === "Escape" && app.selected) { app.selected = null; renderTable(); }
  });

  let resizeTimer = null;
  window.addEventListener("resize", () => {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => {
      if (app.socket) send({ type: "hello", width: lineWidth() });
      if (app.replay) showReplayStep(app.replay.step);
    }, 250);
  });

  async function start() {
    const stored = localStorage.getItem("lang");
    const explicit = new URLSearchParams(window.location.search).get("lang");
    if (explicit === "en" || explicit === "de") {
      // A language asked for in the link is remembered, as if chosen from the menu.
      remember(explicit);
    }
    if (explicit === "en" || explicit === "de" || body.dataset.page === "howto") {
      if (!explicit && stored && stored !== app.lang) { window.location.search = `?lang=${stored}`; return; }
    } else if (stored && stored !== app.lang) {
      app.lang = stored;
      document.documentElement.lang = stored;
    }
    const select = document.getElementById("lang-select");
    if (select) select.addEventListener("change", () => setLang(select.value));
    await loadMessages(app.lang);
    translateChrome();
    if (body.dataset.page !== "app") return;
    const response = await fetch("/api/bots");
    app.offered = (await response.json()).offered;
    route();
  }

  start();
})();
