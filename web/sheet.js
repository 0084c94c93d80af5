// sheet.js: a card's text on tap (issue 31 goal 5). An "i" button beside
// a card (or beside anything else of the board that has a text) opens its
// name and text, as the catalog gives them in the chosen language, in a
// modal <dialog>: a bottom sheet on a phone (style.css). Escape, Close or
// a tap outside closes it, and the focus goes back to the button that
// opened it, or, when the board was redrawn meanwhile (a live event), to
// the button drawn since for the same thing (its `data-info`). The card
// itself stays the control that plays it (board.js): the button is
// another control, never part of the card's.
import { h, mount } from "./dom.js";

/** @type {HTMLDialogElement | null} the one sheet, made on first use */
let dialog = null;
/** @type {{el: Element, key: string} | null} the button that opened the sheet, and its data-info */
let opener = null;

/** The sheet's dialog, made and put into the page once. */
function sheet() {
  if (dialog) return dialog;
  const d = /** @type {HTMLDialogElement} */ (
    h("dialog", { class: "sheet", "aria-labelledby": "sheet-h" }, h("div", { class: "sheet-body" }))
  );
  d.addEventListener("close", () => {
    const o = opener;
    opener = null;
    if (!o) return;
    const again = o.el.isConnected ? o.el : document.querySelector(`main [data-info="${CSS.escape(o.key)}"]`);
    /** @type {HTMLElement | null} */ (again)?.focus();
  });
  // A tap on the backdrop (outside the body) closes it.
  d.addEventListener("click", (ev) => {
    if (ev.target === d) d.close();
  });
  // Leaving the screen closes it.
  window.addEventListener("hashchange", () => d.open && d.close());
  document.body.append(d);
  return (dialog = d);
}

/**
 * Opens the sheet: heading `title`, then `body` (paragraphs of text),
 * opened by button `from` (focused again on closing) whose data-info is `key`.
 * @param {string} title @param {(string | Node)[]} body @param {Element} from @param {string} key
 */
function open(title, body, from, key) {
  const d = sheet();
  opener = { el: from, key };
  mount(
    /** @type {HTMLElement} */ (d.firstElementChild),
    h("h2", { id: "sheet-h" }, title),
    body.map((p) => (typeof p === "string" ? h("p", {}, p) : p)),
    h(
      "p",
      { class: "row" },
      h("button", { type: "button", class: "close", onclick: () => d.close() }, "Close"),
    ),
  );
  if (!d.open) d.showModal();
}

/**
 * The "i" button of a thing with a text: named "About <title>", it opens
 * the sheet with `title` and `body`. `key` names the thing where it is
 * drawn ("hand-2", "row-command-curious"), to find its button again after
 * a redraw.
 * @param {string} key @param {string} title @param {(string | Node)[]} body
 */
export function infoButton(key, title, body) {
  return h(
    "button",
    {
      type: "button",
      class: "info",
      "data-info": key,
      "aria-label": `About ${title}`,
      "aria-haspopup": "dialog",
      onclick: (ev) => open(title, body, /** @type {Element} */ (ev.currentTarget), key),
    },
    "i",
  );
}

/**
 * A card as drawn (`face`, a plain card or the button that plays it) with
 * its "i" button beside it, kept together on one line.
 * @param {Node} face @param {HTMLElement} info
 */
export function withInfo(face, info) {
  return h("span", { class: "with-info" }, face, info);
}
