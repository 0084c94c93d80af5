// session.js: who the browser is. A player's token is kept in
// localStorage (this device's token: POST /v1/players gave it, or it was
// pasted from another device's POST /v1/players/me/tokens), with the
// language chosen for the API's texts.
import * as api from "./api.js";

const KEY = "boardd.identity";
const LANG = "boardd.language";

/** @typedef {{id: string, name: string, token: string}} Identity */

/** @returns {Identity | null} */
export function identity() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "null");
    return v && typeof v.token === "string" ? v : null;
  } catch {
    return null;
  }
}

/** Sets api.config from what is stored. Call once at start. */
export function restore() {
  api.config.token = identity()?.token ?? null;
  api.config.language = localStorage.getItem(LANG) || "";
}

/** Becomes a new player named `name`. @param {string} name @returns {Promise<Identity>} */
export async function signUp(name) {
  const p = await api.createPlayer(name);
  return save({ id: p.id, name: p.name, token: p.token });
}

/** Uses a player token made elsewhere (checked with GET /v1/players/me). @param {string} token */
export async function useToken(token) {
  const before = api.config.token;
  api.config.token = token;
  try {
    const p = await api.me();
    return save({ id: p.id, name: p.name, token });
  } catch (e) {
    api.config.token = before;
    throw e;
  }
}

/** Signs this device in with a link code another device made. @param {string} code @returns {Promise<Identity>} */
export async function useLinkCode(code) {
  const before = api.config.token;
  api.config.token = null; /* the claim needs no token */
  try {
    const r = await api.claimLinkCode(code);
    return save({ id: r.player.id, name: r.player.name, token: r.token });
  } catch (e) {
    api.config.token = before;
    throw e;
  }
}

/** Forgets this device's identity (the token stays valid on the server). */
export function signOut() {
  localStorage.removeItem(KEY);
  api.config.token = null;
}

/** @param {string} lang "" for the browser's own, or a tag such as "fr" */
export function setLanguage(lang) {
  localStorage.setItem(LANG, lang);
  api.config.language = lang;
}

/** @param {Identity} id */
function save(id) {
  localStorage.setItem(KEY, JSON.stringify(id));
  api.config.token = id.token;
  return id;
}
