// board.js: what both boards share to choose a move by tapping: the
// listed actions a tap narrows to, offered as the choices or posted when
// only one is left, and the keyboard for SVG controls. The actions are
// always the server's own (GET …/actions), compared whole: nothing here
// knows a rule.

import { h } from "./dom.js";

/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./game.js").BoardUi} BoardUi */

/** An action as a string, to find it again in a list fetched anew. @param {Action} a */
const key = (a) => JSON.stringify(a);

/**
 * Offers `matching` (listed actions) after a tap: posts the action when it
 * is the only one and `done` (the tap said all it names), else shows them
 * as the current choices under `what` (words for what was tapped).
 * @param {BoardUi} ui @param {Action[]} matching @param {string} what @param {boolean} [done]
 */
export function offer(ui, matching, what, done = true) {
  if (done && matching.length === 1) {
    ui.act(matching[0]);
    return;
  }
  ui.pick(only(matching), what);
}

/** A filter that accepts the actions of `matching` (whole, as listed). @param {Action[]} matching */
export function only(matching) {
  const keys = new Set(matching.map(key));
  return (/** @type {Action} */ a) => keys.has(key(a));
}

/**
 * The attributes that make an SVG element a control: focusable, a button
 * to assistive technology, named `label`, run by a click, Enter or Space.
 * @param {string} label @param {() => void} fn
 */
export function tapAttrs(label, fn) {
  return {
    tabindex: 0,
    role: "button",
    "aria-label": label,
    "data-pick": "",
    onclick: () => fn(),
    onkeydown: (/** @type {Event} */ ev) => {
      const k = /** @type {KeyboardEvent} */ (ev).key;
      if (k === "Enter" || k === " ") {
        ev.preventDefault();
        fn();
      }
    },
  };
}

/**
 * A card drawn as a button that narrows the listed actions: `matching`
 * (those it names), offered on a tap; drawn as a plain card when none.
 * @param {Node} face the card as drawn @param {Action[]} matching
 * @param {string} label the button's name (the card and what a tap does)
 * @param {BoardUi} ui @param {string} [cls]
 */
export function tapCard(face, matching, label, ui, cls = "") {
  if (!matching.length) return face;
  return h(
    "button",
    {
      type: "button",
      class: `tap ${cls}`,
      "data-pick": "",
      "aria-label": label,
      onclick: () => offer(ui, matching, label),
    },
    face,
  );
}
