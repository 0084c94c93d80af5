// dom.js: a tiny element builder, so views are plain functions that
// return DOM nodes (no framework, no templates parsed from strings).

/**
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attrs
 * @typedef {Node | string | number | null | undefined | false} Child
 */

/**
 * An HTML element: h("button", {type: "button", onclick: f}, "Join").
 * Attributes named on* are listeners; false, null and undefined ones are
 * left out; `style` is refused (the server's CSP would block it); children may be nested arrays, strings or nodes.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An SVG element, as h() does for HTML.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** @param {Element} el @param {Attrs} attrs */
function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    // The server's Content-Security-Policy (style-src 'self') blocks
    // style attributes: set el.style's properties instead.
    if (k === "style") throw new Error("no style attribute: set el.style instead (CSP)");
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

/** @param {Element} el @param {(Child | Child[])[]} children */
function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "object" ? /** @type {Node} */ (c) : String(c));
  }
}

/**
 * Replaces the children of `el` with `children`.
 * @param {Element} el
 * @param {...(Child | Child[])} children
 */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}
