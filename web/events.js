// events.js: a game's live event stream (GET /v1/games/{id}/events, SSE),
// with reconnect. EventSource cannot send Authorization, so each
// connection of a seated caller first asks for a single-use ticket
// (POST /v1/tickets) for the exact URL, resuming with ?after=<last seq>.

import * as api from "./api.js";

/**
 * @typedef {{event: string, seq: number, [k: string]: unknown}} GameEvent
 * @typedef {"live" | "connecting" | "offline" | "ended"} LinkState
 */

/**
 * Follows game `id` until stop() is called or the game ends (an `end`
 * event, or end() called by a screen that saw the game finished: a stream
 * asked again after the end answers 204, which EventSource reports as
 * a mere error).
 * @param {string} id
 * @param {(e: GameEvent) => void} onEvent each state, move, end and chat
 *   event (a chat event's `seq` is the last move's the stream told)
 * @param {(s: LinkState) => void} onLink the connection's state, for the screen
 * @returns {{stop: () => void, end: () => void}}
 */
export function follow(id, onEvent, onLink) {
  /** @type {number | null} */
  let last = null;
  /** @type {EventSource | null} */
  let es = null;
  let stopped = false;
  let delay = 500;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  async function open() {
    if (stopped) return;
    onLink("connecting");
    const path = `/v1/games/${encodeURIComponent(id)}/events` + (last === null ? "" : `?after=${last}`);
    let url = api.config.base + path;
    try {
      if (api.config.token) {
        const t = await api.ticket(path);
        url =
          api.config.base +
          t.url +
          (t.url.includes("?") ? "&" : "?") +
          "ticket=" +
          encodeURIComponent(t.ticket);
      }
    } catch (e) {
      retry();
      return;
    }
    if (stopped) return;
    es = new EventSource(url);
    es.onopen = () => {
      delay = 500;
      onLink("live");
    };
    /**
     * One event. Its kind is the SSE event name (`m.type`: state, move,
     * end or chat); the data is a GameEvent without its `event` member (openapi
     * streamEvents), so the kind is put back from the name.
     * @param {MessageEvent} m
     */
    const handle = (m) => {
      /** @type {GameEvent} */
      const e = { ...JSON.parse(m.data), event: m.type };
      if (typeof e.seq === "number") last = e.seq;
      onEvent(e);
      if (e.event === "end") end();
    };
    for (const name of ["state", "move", "end", "chat"]) es.addEventListener(name, handle);
    es.onerror = () => {
      // The ticket is spent: close this one and open anew from `last`.
      es?.close();
      es = null;
      retry();
    };
  }

  function retry() {
    if (stopped) return;
    onLink("offline");
    timer = setTimeout(open, delay);
    delay = Math.min(delay * 2, 15000);
  }

  /** The game is over: no more events will come, so no reconnecting. */
  function end() {
    if (stopped) return;
    stop();
    onLink("ended");
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    es?.close();
    es = null;
  }

  open();
  return { stop, end };
}
