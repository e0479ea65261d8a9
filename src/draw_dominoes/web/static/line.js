// The line as the server draws it: fitted to its felt, the last tile lit, the ends labelled
// by the value they take (a wrapped line's end 1 may well be drawn on the left).

import { t, pips } from "./core.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** Puts the server's SVG into ``box`` and marks the tile placed last. */
export function showLine(box, svgText, fallbackText, { lastTile = null, fresh = false } = {}) {
  box.replaceChildren();
  if (!svgText) {
    box.textContent = fallbackText || "";
    return null;
  }
  box.innerHTML = svgText;
  const svg = box.querySelector("svg");
  if (!svg) return null;
  if (svg.getAttribute("role") === "img" && svg.querySelector(".port-marker")) {
    svg.setAttribute("role", "group");  // focusable markers may not sit inside an image
  }
  const tiles = [...svg.querySelectorAll("g[data-placed]")];
  let last = null;
  if (lastTile) last = tiles.find((g) => g.getAttribute("data-tile") === lastTile) || null;
  if (!last && tiles.length) {
    last = tiles.reduce((a, b) => (Number(b.dataset.placed) > Number(a.dataset.placed) ? b : a));
  }
  if (last) {
    last.classList.add("last-placed");
    if (fresh) last.classList.add("fresh");
  }
  return svg;
}

/** Draws a glow behind the last tile once the SVG is in the page (bounding boxes need layout). */
function glow(svg) {
  const last = svg.querySelector("g.last-placed");
  if (!last || svg.querySelector(".last-glow")) return;
  let box;
  try { box = last.getBBox(); } catch { return; }
  if (!box.width) return;
  const pad = Math.min(box.width, box.height) * 0.12;
  const rect = document.createElementNS(SVG_NS, "rect");
  rect.setAttribute("class", "last-glow");
  rect.setAttribute("x", box.x - pad);
  rect.setAttribute("y", box.y - pad);
  rect.setAttribute("width", box.width + 2 * pad);
  rect.setAttribute("height", box.height + 2 * pad);
  rect.setAttribute("rx", pad * 1.5);
  rect.setAttribute("aria-hidden", "true");
  last.parentNode.insertBefore(rect, last);
}

function tileSize(svg) {
  const item = svg.querySelector("g[data-placed]") || svg.querySelector(".port-marker");
  if (!item) return 32;
  try {
    const box = item.getBBox();
    return Math.max(4, Math.min(box.width, box.height));
  } catch { return 32; }
}

/** Scales the SVG to the largest size its box allows (tiles at most ``maxTile`` px). */
export function fitLine(box, maxTile = 72) {
  const svg = box && box.querySelector("svg");
  if (!svg) return;
  const width = Number(svg.getAttribute("width")) || svg.viewBox.baseVal.width;
  const height = Number(svg.getAttribute("height")) || svg.viewBox.baseVal.height;
  if (!width || !height) return;
  const style = window.getComputedStyle(box);
  const roomW = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const roomH = box.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  if (roomW <= 0 || roomH <= 0) return;
  const scale = Math.min(roomW / width, roomH / height, maxTile / tileSize(svg));
  svg.style.width = `${Math.floor(width * scale)}px`;
  svg.style.height = `${Math.floor(height * scale)}px`;
  glow(svg);
}

/** The value end ``end`` takes, from the view's list of free ends. */
export function endValue(ends, end) {
  const found = (ends || []).find((e) => String(e.end) === String(end));
  return found ? found.value : null;
}

/** "the 4 end", told apart without left or right when both ends take the same value. */
export function endName(ends, end) {
  if (String(end) === "open") return t("line_empty_target");
  const value = endValue(ends, end);
  const other = (ends || []).find((e) => String(e.end) !== String(end));
  if (!other || other.value !== value) return t("end_value", { value });
  const mine = ends.find((e) => String(e.end) === String(end));
  if (mine.tile && other.tile && mine.tile !== other.tile) {
    return t("end_value_at", { value, tile: mine.tile });
  }
  return String(end) === "0" ? t("end_value_one", { value }) : t("end_value_other", { value });
}

/** The public moves of one round in words, each placed tile with the value it matched. */
export function describeMoves(history, names) {
  const ends = [null, null];
  return history.map((entry) => {
    const seat = Array.isArray(entry) ? entry[0] : entry.player;
    const action = String(Array.isArray(entry) ? entry[1] : entry.action);
    const name = names[seat] ?? "?";
    let text;
    if (action === "draw") text = t("log_draw", { name });
    else if (action === "pass") text = t("log_pass", { name });
    else {
      const [tile, at] = action.split("@");
      const [a, b] = pips(tile);
      if (at === undefined) {
        ends[0] = a; ends[1] = b;
        text = t("log_open", { name, tile });
      } else {
        const end = Number(at);
        const value = ends[end];
        ends[end] = a === value ? b : a;
        text = value === null ? t("log_place_plain", { name, tile }) : t("log_place", { name, tile, value });
      }
    }
    return { seat, action, text };
  });
}
