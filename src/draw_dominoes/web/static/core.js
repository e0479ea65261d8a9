// Shared helpers: the app's state, translations, element building, focus keeping.

export const body = document.body;

export const app = {
  lang: body.dataset.lang || "en",
  messages: {},
  offered: [],
  levels: [],
};

export function t(key, values = {}) {
  const template = app.messages["web." + key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : ""));
}

export function has(key) {
  return app.messages["web." + key] !== undefined;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

/** Appends children, skipping null, undefined and false (never the text "null"). */
export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

export function tileImage(tile, { vertical = true, cls = "tile-img" } = {}) {
  const src = tile ? `/tile/${tile.slice(1, -1).replace("|", "-")}.svg` : "/tile/back.svg";
  return el("img", {
    src: `${src}?size=40${vertical ? "&v=1" : ""}`,
    alt: tile || "",
    class: cls,
    draggable: "false",
  });
}

export function pips(tile) {
  const [a, b] = tile.slice(1, -1).split("|").map(Number);
  return [a, b];
}

export function levelName(level) {
  return has("level_" + level) ? t("level_" + level) : level;
}

export function levelAbout(level) {
  return has("level_about_" + level) ? t("level_about_" + level) : null;
}

export function announce(text) {
  if (!text) return;
  const live = document.getElementById("live");
  if (!live) return;
  live.textContent = "";
  window.setTimeout(() => { live.textContent = text; }, 30);
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// ------------------------------------------------------------ focus

/** A selector that finds the focused element again after a redraw, or null. */
export function focusKey() {
  const active = document.activeElement;
  const root = document.getElementById("main");
  if (!active || active === document.body || !root || !root.contains(active)) return null;
  for (const name of ["data-hand-tile", "data-action", "data-focus"]) {
    const value = active.getAttribute(name);
    if (value !== null) return `[${name}="${CSS.escape(value)}"]`;
  }
  if (active.classList.contains("port-marker")) {
    return `.port-marker[data-end="${active.getAttribute("data-end")}"]`;
  }
  if (active.id) return `#${CSS.escape(active.id)}`;
  return "#main";
}

/** Puts focus back where it was, else on the first of ``fallbacks`` that exists. */
export function restoreFocus(key, fallbacks = []) {
  if (!key) return;
  for (const selector of [key, ...fallbacks, "#main"]) {
    const node = document.querySelector(selector);
    if (node && !node.disabled && node.offsetParent !== null) {
      node.focus({ preventScroll: true });
      return;
    }
  }
  document.getElementById("main")?.focus({ preventScroll: true });
}

// ------------------------------------------------------------ i18n

export async function loadMessages(lang) {
  const response = await fetch(`/api/i18n/${lang}`);
  app.messages = await response.json();
}

export function rememberLang(lang) {
  localStorage.setItem("lang", lang);
  document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=strict`;
}

export function translateChrome() {
  const pairs = [["nav-home", "nav_home"], ["nav-howto", "nav_howto"], ["nav-leaderboard", "nav_leaderboard"]];
  for (const [id, key] of pairs) {
    const link = document.getElementById(id);
    if (link) link.textContent = t(key);
  }
  const brand = document.querySelector(".brand");
  if (brand) brand.textContent = t("app_title");
  const select = document.getElementById("lang-select");
  if (select) {
    select.value = app.lang;
    if (select.previousSibling) select.previousSibling.textContent = t("language");
  }
  const skip = document.querySelector(".skip");
  if (skip) skip.textContent = t("skip_to_content");
}

export function setTitle(text) {
  document.title = text ? `${text} – ${t("app_title")}` : t("app_title");
}

export function storedName() {
  return (localStorage.getItem("name") || "").trim();
}

export function defaultName() {
  return storedName() || t("default_name");
}

export async function postJSON(url, data) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data),
  });
  let payload = {};
  try { payload = await response.json(); } catch { payload = { message: t("error_internal") }; }
  return { ok: response.ok, status: response.status, data: payload, response };
}

// ------------------------------------------------------------ small icons (no fonts, no files)

const ICONS = {
  robot: [
    ["rect", { x: 5, y: 8, width: 14, height: 11, rx: 3 }],
    ["line", { x1: 12, y1: 4, x2: 12, y2: 8 }],
    ["circle", { cx: 12, cy: 3.5, r: 1.4, fill: "currentColor" }],
    ["circle", { cx: 9.2, cy: 12.6, r: 1.5, fill: "currentColor" }],
    ["circle", { cx: 14.8, cy: 12.6, r: 1.5, fill: "currentColor" }],
    ["line", { x1: 9.5, y1: 16.2, x2: 14.5, y2: 16.2 }],
    ["line", { x1: 3, y1: 12, x2: 5, y2: 12 }],
    ["line", { x1: 19, y1: 12, x2: 21, y2: 12 }],
  ],
  "sound-on": [
    ["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }],
    ["path", { d: "M16 9a4 4 0 0 1 0 6" }],
    ["path", { d: "M18.5 6.5a7.5 7.5 0 0 1 0 11" }],
  ],
  "sound-off": [
    ["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }],
    ["line", { x1: 16, y1: 9, x2: 21, y2: 15 }],
    ["line", { x1: 21, y1: 9, x2: 16, y2: 15 }],
  ],
};

/** A small line icon drawn in the text's colour; decorative (aria-hidden). */
export function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  for (const [key, value] of Object.entries({
    viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", "stroke-width": "2",
    "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true", focusable: "false",
  })) svg.setAttribute(key, value);
  for (const [tag, attrs] of ICONS[name] || []) {
    const part = document.createElementNS(ns, tag);
    for (const [key, value] of Object.entries(attrs)) part.setAttribute(key, String(value));
    svg.append(part);
  }
  return svg;
}

/** "Ann", "Ann and Bea", "Ann, Bea and Cem". */
export function listNames(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")}${t("and")}${names[names.length - 1]}`;
}

/** How strong a bot plays, in one word ("medium"). */
export function strengthName(level) {
  return has("strength_" + level) ? t("strength_" + level) : levelName(level);
}
