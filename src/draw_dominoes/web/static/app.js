// draw-dominoes in the browser: renders what the server sends and sends back intents; the
// server alone decides what is legal (R8) and what each seat may see (R21).

import { app, body, loadMessages, rememberLang, translateChrome, setTitle } from "./core.js";
import { renderStart } from "./start.js";
import { openTable, renderTable, tableKeys, tableResized, tableLanguage } from "./ctrl.js";
import { openReplay, replayKeys, replayActive, replayRedraw, replayResized } from "./replay.js";

let page = "start";

function route() {
  const path = window.location.pathname;
  let match = path.match(/^\/t\/([\w-]+)\/replay\/(\d+)$/);
  if (match) {
    page = "replay";
    openReplay(match[1], Number(match[2]));
    return;
  }
  match = path.match(/^\/t\/([\w-]+)$/);
  if (match) {
    page = "table";
    openTable(match[1]);
    return;
  }
  page = "start";
  setTitle("");
  renderStart();
}

async function setLang(lang) {
  rememberLang(lang);
  if (body.dataset.page === "howto") {
    window.location.search = `?lang=${lang}`;
    return;
  }
  app.lang = lang;
  document.documentElement.lang = lang;
  await loadMessages(lang);
  translateChrome();
  // The menu keeps focus while the page redraws in the new language.
  document.getElementById("lang-select")?.focus({ preventScroll: true });
  if (page === "table") tableLanguage();
  else if (page === "replay") replayRedraw();
  else { setTitle(""); renderStart(); }
}

document.addEventListener("keydown", (event) => {
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName);
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (page === "replay" && replayActive()) { replayKeys(event); return; }
  if (page === "table" && tableKeys(event)) event.preventDefault();
});

let resizeTimer = null;
window.addEventListener("resize", () => {
  window.clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(() => {
    if (page === "table") tableResized();
    if (page === "replay") replayResized();
  }, 200);
});

async function start() {
  const stored = localStorage.getItem("lang");
  const explicit = new URLSearchParams(window.location.search).get("lang");
  // The server lists its languages on the page: one list, kept by the catalogues.
  const known = (body.dataset.languages || "en").split(" ").includes(explicit);
  if (known) rememberLang(explicit);
  if (known || body.dataset.page === "howto") {
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
  try {
    const response = await fetch("/api/bots");
    const answer = await response.json();
    app.offered = answer.offered || [];
    app.levels = answer.levels || [];
  } catch { app.offered = []; app.levels = []; }
  route();
}

export { renderTable };
start();
