// sw.js: the client's service worker (registered by settings.js with the
// page's scope). It shows the Web Push messages boardd sends (their
// payload, docs/notifications.md: {game_id, kind, title, body}) and, on a
// click, opens that game: it focuses a window of the client already open
// (and takes it to the game) or opens a new one.

// The client's files are type-checked with the DOM's types, which lack
// the service worker's (lib "webworker" cannot join them): the worker's
// scope is typed by hand, as much as is used here.
/**
 * @typedef {{focus: () => Promise<{navigate: (url: string) => Promise<unknown>}>, url: string}} WindowClient
 * @typedef {Event & {waitUntil: (p: Promise<unknown>) => void}} ExtendableEvent
 * @typedef {ExtendableEvent & {data: {json: () => any, text: () => string} | null}} PushEvent
 * @typedef {ExtendableEvent & {notification: Notification}} NotificationEvent
 * @typedef {{
 *   addEventListener: ((type: "install" | "activate", f: (ev: ExtendableEvent) => void) => void)
 *     & ((type: "push", f: (ev: PushEvent) => void) => void)
 *     & ((type: "notificationclick", f: (ev: NotificationEvent) => void) => void),
 *   skipWaiting: () => Promise<void>,
 *   registration: ServiceWorkerRegistration,
 *   clients: {claim: () => Promise<void>, matchAll: (o: object) => Promise<WindowClient[]>, openWindow: (url: string) => Promise<unknown>},
 * }} WorkerScope
 */
const sw = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", () => sw.skipWaiting());
sw.addEventListener("activate", (ev) => ev.waitUntil(sw.clients.claim()));

sw.addEventListener("push", (ev) => {
  /** @type {{game_id?: string, kind?: string, title?: string, body?: string}} */
  let d = {};
  try {
    d = ev.data ? ev.data.json() : {};
  } catch {
    d = { body: ev.data ? ev.data.text() : "" };
  }
  ev.waitUntil(
    sw.registration.showNotification(d.title || "boardd", {
      body: d.body || "",
      icon: "favicon.svg",
      // A newer message about a game replaces the older one.
      tag: d.game_id || undefined,
      data: { game_id: d.game_id || null },
    }),
  );
});

sw.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  const game = ev.notification.data?.game_id;
  const url = new URL(game ? `./#/game/${encodeURIComponent(game)}` : "./", sw.registration.scope).href;
  ev.waitUntil(
    (async () => {
      const open = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const c of open) {
        if (new URL(c.url).origin !== new URL(url).origin) continue;
        try {
          const w = await c.focus();
          await w.navigate(url); // refused for a window this worker does not control
          return;
        } catch {
          // a new window instead (below)
        }
      }
      await sw.clients.openWindow(url);
    })(),
  );
});
