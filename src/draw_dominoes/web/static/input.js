// The player's hands on the table: clicks and keys on the rack and the line's ends, a tile
// dragged onto an end, and the page's shortcuts; each ends in one of the controller's intents.

import { el, tileImage } from "./core.js";

// Only a drag in progress lives here, and the click it swallows; the rest is the controller's.
let drag = null;
let suppressClick = false;

/** The table's shortcuts: d draws, p passes, h asks for a hint, Escape drops the tile chosen. */
export function tableKeys(ctrl, event) {
  if (!ctrl.state) return false;
  if (event.key === "d" && ctrl.legal().includes("draw") && ctrl.isMyTurn()) { ctrl.act("draw"); return true; }
  if (event.key === "p" && ctrl.legal().includes("pass") && ctrl.isMyTurn()) { ctrl.act("pass"); return true; }
  if (event.key === "h" && ctrl.canAskHint()) return ctrl.askHint();
  if (event.key === "u" && (ctrl.state.table.leaving || {}).take_back) { ctrl.takeBack(); return true; }
  if (event.key === "Escape" && ctrl.selected) {
    const tile = ctrl.selected;
    ctrl.select(null);
    document.querySelector(`[data-hand-tile="${tile}"]`)?.focus();
    return true;
  }
  return false;
}

export function tileClick(ctrl, tile) {
  if (!suppressClick) ctrl.choose(tile);  // the click that ends a drag is not a choice
}

/** The arrow keys walk the rack, round from the last tile to the first. */
export function rackKeys(event, tile) {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const tiles = [...document.querySelectorAll("[data-hand-tile]")];
  const index = tiles.findIndex((node) => node.dataset.handTile === tile);
  const next = tiles[(index + (event.key === "ArrowRight" ? 1 : tiles.length - 1)) % tiles.length];
  if (next) { event.preventDefault(); next.focus(); }
}

/** A line's end marker places the chosen tile, by click, Enter or Space. */
export function bindMarker(ctrl, marker, end) {
  marker.addEventListener("click", () => ctrl.placeAt(end));
  marker.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); ctrl.placeAt(end); }
  });
}

function highlightMarkers(ctrl, tile) {
  const lit = tile ? ctrl.fitsOf(tile) : [];
  for (const marker of document.querySelectorAll("#line .port-marker")) {
    marker.classList.toggle("highlight", lit.includes(marker.getAttribute("data-end")));
  }
}

// A finger (or a mouse) drags a tile onto a marker: pointer events, not HTML5 drag.
export function dragStart(ctrl, event, tile) {
  if (event.button !== 0 || !ctrl.fitsOf(tile).length) return;
  drag = { ctrl, tile, x: event.clientX, y: event.clientY, ghost: null, source: event.currentTarget, id: event.pointerId };
  window.addEventListener("pointermove", dragMove);
  window.addEventListener("pointerup", dragEnd);
  window.addEventListener("pointercancel", dragCancel);
}

function dragMove(event) {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
    drag.ghost = el("div", { class: "drag-ghost", "aria-hidden": "true" }, tileImage(drag.tile));
    document.body.append(drag.ghost);
    drag.source.classList.add("dragging");
    highlightMarkers(drag.ctrl, drag.tile);
  }
  event.preventDefault();
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  const marker = markerAt(event.clientX, event.clientY);
  for (const node of document.querySelectorAll("#line .port-marker")) node.classList.toggle("over", node === marker);
}

function markerAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  const marker = hit && hit.closest ? hit.closest(".port-marker") : null;
  if (marker) return marker;
  // A finger is broad: the nearest lit marker within reach counts too.
  let best = null;
  let bestDistance = 48;
  for (const node of document.querySelectorAll("#line .port-marker.highlight")) {
    const r = node.getBoundingClientRect();
    const distance = Math.hypot(x - (r.left + r.width / 2), y - (r.top + r.height / 2)) - r.width / 2;
    if (distance < bestDistance) { best = node; bestDistance = distance; }
  }
  return best;
}

function dragEnd(event) {
  const done = drag;
  dragCancel();
  if (!done || !done.ghost) return;
  suppressClick = true;
  window.setTimeout(() => { suppressClick = false; }, 50);
  const { ctrl, tile } = done;
  const marker = markerAt(event.clientX, event.clientY);
  const end = marker && marker.getAttribute("data-end");
  if (end && ctrl.fitsOf(tile).includes(end)) ctrl.act(ctrl.actionFor(tile, end));
  else highlightMarkers(ctrl, ctrl.selected);
}

function dragCancel() {
  window.removeEventListener("pointermove", dragMove);
  window.removeEventListener("pointerup", dragEnd);
  window.removeEventListener("pointercancel", dragCancel);
  if (drag && drag.ghost) { drag.ghost.remove(); drag.source.classList.remove("dragging"); }
  drag = null;
}
