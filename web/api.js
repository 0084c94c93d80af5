// api.js: the boardd HTTP API, one function per operation of
// openapi/openapi.yaml that this client uses. Every call sends the
// caller's bearer token (when it has one) and Accept-Language; every
// refusal becomes an ApiError carrying the problem+json `detail`.

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Rematch} Rematch */
/** @typedef {import("./types.js").GameList} GameList */
/** @typedef {import("./types.js").Player} Player */
/** @typedef {import("./types.js").NewPlayer} NewPlayer */
/** @typedef {import("./types.js").ActionList} ActionList */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").MyGames} MyGames */
/** @typedef {import("./types.js").Ticket} Ticket */
/** @typedef {import("./types.js").CreateGame} CreateGame */
/** @typedef {import("./types.js").CreatedGame} CreatedGame */
/** @typedef {import("./types.js").Joined} Joined */
/** @typedef {import("./types.js").NewToken} NewToken */
/** @typedef {import("./types.js").Problem} Problem */
/** @typedef {import("./types.js").MoveList} MoveList */
/** @typedef {import("./types.js").Seek} Seek */
/** @typedef {import("./types.js").CreateSeek} CreateSeek */
/** @typedef {import("./types.js").SeekList} SeekList */
/** @typedef {import("./types.js").Leaderboard} Leaderboard */
/** @typedef {import("./types.js").Profile} Profile */
/** @typedef {import("./types.js").RatingHistory} RatingHistory */
/** @typedef {import("./types.js").PushKey} PushKey */
/** @typedef {import("./types.js").PushSubscription} PushSubscription */
/** @typedef {import("./types.js").PushSubscriptionList} PushSubscriptionList */
/** @typedef {import("./types.js").NewPushSubscription} NewPushSubscription */
/** @typedef {import("./types.js").EmailAddress} EmailAddress */
/** @typedef {import("./types.js").ChatMessage} ChatMessage */
/** @typedef {import("./types.js").ChatPage} ChatPage */
/** @typedef {import("./types.js").NewReport} NewReport */
/** @typedef {import("./types.js").Report} Report */
/** @typedef {import("./types.js").Vacation} Vacation */

/** A refusal of the server (or no answer at all). */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status; 0 when the request got no answer
   * @param {string} detail the problem's `detail` (a sentence for people)
   * @param {Problem | null} problem the whole problem document, if any
   */
  constructor(status, detail, problem) {
    super(detail);
    this.status = status;
    this.problem = problem;
  }
}

/** Settings every request uses; set by the app (session.js). */
export const config = {
  /** @type {string} the API's origin; "" for the page's own */
  base: "",
  /** @type {string | null} the bearer token, or null for a spectator */
  token: null,
  /** @type {string} the Accept-Language value ("" for the browser's own) */
  language: "",
};

/**
 * One request. The answer's JSON body, or null for 204.
 * @param {string} method
 * @param {string} path the path and query, e.g. "/v1/games?status=waiting"
 * @param {unknown} [body] sent as JSON when given
 * @param {Record<string, string>} [headers] extra request headers
 * @returns {Promise<any>}
 */
export async function request(method, path, body, headers = {}) {
  /** @type {Record<string, string>} */
  const h = { Accept: "application/json", ...headers };
  if (config.token) h.Authorization = `Bearer ${config.token}`;
  if (config.language) h["Accept-Language"] = config.language;
  if (body !== undefined) h["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(config.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, `The server did not answer (${String(e)}).`, null);
  }
  if (res.status === 204) return null;
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    const problem = type.includes("problem+json") ? /** @type {Problem} */ (data) : null;
    throw new ApiError(res.status, problem?.detail || problem?.title || `HTTP ${res.status}`, problem);
  }
  return data;
}

/** @returns {Promise<Catalog>} */
export const catalog = () => request("GET", "/v1/catalog");

/** @param {string} name @returns {Promise<NewPlayer>} */
export const createPlayer = (name) => request("POST", "/v1/players", { name });

/** @returns {Promise<Player>} */
export const me = () => request("GET", "/v1/players/me");

/** @param {string} label @returns {Promise<NewToken>} */
export const createToken = (label) => request("POST", "/v1/players/me/tokens", { label });

/**
 * Players whose name starts with `prefix` (GET /v1/players?name=).
 * @param {string} prefix @param {number} [limit]
 * @returns {Promise<{players: {id: string, name: string, created: string}[]}>}
 */
export const findPlayers = (prefix, limit = 10) =>
  request("GET", `/v1/players?name=${encodeURIComponent(prefix)}&limit=${limit}`);

/**
 * A code that signs another device in as you, once, for 10 minutes, with
 * its claim URL at this page's origin (`#/link?code=`) and that URL's QR
 * code (an SVG document made by the server).
 * @returns {Promise<{code: string, expires_at: string, claim_url?: string, qr_svg?: string}>}
 */
export const createLinkCode = () => request("POST", "/v1/players/me/link-codes", { origin: location.origin });

/**
 * Uses a link code made on another device: a token of that player.
 * @param {string} code
 * @returns {Promise<{token: string, token_id: string, player: {id: string, name: string, created: string}}>}
 */
export const claimLinkCode = (code) => request("POST", "/v1/link-codes/claim", { code });

/** Games with an open seat. @returns {Promise<GameList>} */
export const openGames = () => request("GET", "/v1/games?status=waiting&limit=50");

/** The caller's games, invitations included. @returns {Promise<MyGames>} */
export const myGames = () => request("GET", "/v1/players/me/games?limit=50");

/** @param {CreateGame} body @returns {Promise<CreatedGame>} */
export const createGame = (body) => request("POST", "/v1/games", body);

/** @param {string} id @param {number} [seat] @returns {Promise<Joined>} */
export const joinGame = (id, seat) =>
  request("POST", `/v1/games/${encodeURIComponent(id)}/join`, seat === undefined ? undefined : { seat });

/** @param {string} id @returns {Promise<null>} */
export const leaveGame = (id) => request("POST", `/v1/games/${encodeURIComponent(id)}/leave`);

/** @param {string} id @returns {Promise<null>} */
export const cancelGame = (id) => request("DELETE", `/v1/games/${encodeURIComponent(id)}`);

/** @param {string} id @returns {Promise<Game>} */
export const game = (id) => request("GET", `/v1/games/${encodeURIComponent(id)}`);

/** The game as it was after move `at` (0..seq), for a replay. @param {string} id @param {number} at @returns {Promise<Game>} */
export const gameAt = (id, at) => request("GET", `/v1/games/${encodeURIComponent(id)}?at=${at}`);

/**
 * One page of the move log after seq `after`, redacted for the caller
 * (its `next_after` when more follow).
 * @param {string} id @param {number} after @returns {Promise<MoveList>}
 */
export const moves = (id, after) =>
  request("GET", `/v1/games/${encodeURIComponent(id)}/moves?after=${after}`);

/** The caller's legal actions, each with its `label`. @param {string} id @returns {Promise<ActionList>} */
export const actions = (id) => request("GET", `/v1/games/${encodeURIComponent(id)}/actions`);

/**
 * Posts one listed action, unchanged (its `label` included: the server
 * ignores it), guarded by If-Match so a stale screen cannot move.
 * @param {string} id @param {Action} action @param {number} seq the seq the action was listed at
 */
export const move = (id, action, seq) =>
  request("POST", `/v1/games/${encodeURIComponent(id)}/moves`, { action }, { "If-Match": `"${seq}"` });

/** @param {string} id */
export const resign = (id) => request("POST", `/v1/games/${encodeURIComponent(id)}/resign`);

/**
 * Offers a finished game's rematch, or accepts the one offered.
 * @param {string} id @returns {Promise<Rematch>}
 */
export const rematch = (id) => request("POST", `/v1/games/${encodeURIComponent(id)}/rematch`);

/** Declines a finished game's rematch offer (or withdraws one's own). @param {string} id @returns {Promise<null>} */
export const declineRematch = (id) => request("DELETE", `/v1/games/${encodeURIComponent(id)}/rematch`);

/** A single-use ticket for one event stream (EventSource cannot send Authorization). @param {string} url @returns {Promise<Ticket>} */
export const ticket = (url) => request("POST", "/v1/tickets", { url });

/** Quick match: posts a seek (matched at once, with its game_id, when it completes a table). @param {CreateSeek} body @returns {Promise<Seek>} */
export const createSeek = (body) => request("POST", "/v1/seeks", body);

/** One page of the open seeks, oldest first (`after`: the previous page's next_after). @param {string | null} [after] @returns {Promise<SeekList>} */
export const seeks = (after = null) =>
  request("GET", "/v1/seeks?limit=100" + (after ? `&after=${encodeURIComponent(after)}` : ""));

/** One seek, in any state (open, matched with its game_id, cancelled, expired). @param {string} id @returns {Promise<Seek>} */
export const seek = (id) => request("GET", `/v1/seeks/${encodeURIComponent(id)}`);

/** Cancels one of the caller's open seeks. @param {string} id @returns {Promise<null>} */
export const cancelSeek = (id) => request("DELETE", `/v1/seeks/${encodeURIComponent(id)}`);

/**
 * One page of a rating category's leaderboard, best first.
 * @param {string} category @param {string | null} after the previous page's next_after, or null for the top
 * @param {number} limit players a page holds (1-100)
 * @returns {Promise<Leaderboard>}
 */
export const leaderboard = (category, after, limit) =>
  request(
    "GET",
    `/v1/leaderboards/${encodeURIComponent(category)}?limit=${limit}` +
      (after ? `&after=${encodeURIComponent(after)}` : ""),
  );

/** A player's public profile (ratings, rated games, current and finished games). @param {string} id @returns {Promise<Profile>} */
export const profile = (id) => request("GET", `/v1/players/${encodeURIComponent(id)}`);

/** One page of a player's rating changes, oldest first. @param {string} id @param {number} after @returns {Promise<RatingHistory>} */
export const ratingHistory = (id, after = 0) =>
  request("GET", `/v1/players/${encodeURIComponent(id)}/rating-history?limit=100&after=${after}`);

/** The server's VAPID public key (base64url); 404 when Web Push is off. @returns {Promise<PushKey>} */
export const pushKey = () => request("GET", "/v1/push/key");

/** @returns {Promise<PushSubscriptionList>} */
export const pushSubscriptions = () => request("GET", "/v1/players/me/push-subscriptions");

/** Registers a browser's PushSubscription.toJSON() (with the messages' language). @param {NewPushSubscription} body @returns {Promise<PushSubscription>} */
export const addPushSubscription = (body) => request("POST", "/v1/players/me/push-subscriptions", body);

/** @param {string} id @returns {Promise<null>} */
export const deletePushSubscription = (id) =>
  request("DELETE", `/v1/players/me/push-subscriptions/${encodeURIComponent(id)}`);

/** The caller's address and mail settings; 404 when none (or email is off). @returns {Promise<EmailAddress>} */
export const email = () => request("GET", "/v1/players/me/email");

/** Sets the caller's address, unconfirmed: a code is mailed to it. @param {string} address @param {"en" | "fr"} language @returns {Promise<EmailAddress>} */
export const setEmail = (address, language) => request("POST", "/v1/players/me/email", { address, language });

/** Confirms the address with the 8-digit code mailed to it. @param {string} code @returns {Promise<EmailAddress>} */
export const confirmEmail = (code) => request("POST", "/v1/players/me/email/confirm", { code });

/** Changes the mail settings. @param {{mode?: "event" | "digest" | "none", digest_hour?: number, time_zone?: string}} body @returns {Promise<EmailAddress>} */
export const patchEmail = (body) => request("PATCH", "/v1/players/me/email", body);

/** Removes the caller's address. @returns {Promise<null>} */
export const deleteEmail = () => request("DELETE", "/v1/players/me/email");

/**
 * One page of a game's chat channel after message number `after`, oldest
 * first (blocked players' messages left out by the server).
 * @param {string} path the channel's path, "/v1/games/<id>/chat/players" or "…/spectators"
 * @param {number} after @returns {Promise<ChatPage>}
 */
export const chat = (path, after) => request("GET", `${path}?after=${after}&limit=100`);

/** Writes `text` (1-500 code points) in a chat channel. @param {string} path as chat()'s @param {string} text @returns {Promise<ChatMessage>} */
export const postChat = (path, text) => request("POST", path, { text });

/** Blocks a player (their messages are no longer shown to the caller). @param {string} id @returns {Promise<null>} */
export const blockPlayer = (id) => request("PUT", `/v1/players/me/blocks/${encodeURIComponent(id)}`);

/** Reports a player or a chat message to the operators. @param {NewReport} body @returns {Promise<Report>} */
export const report = (body) => request("POST", "/v1/reports", body);

/** The caller's vacation balance and the vacation being taken. @returns {Promise<Vacation>} */
export const vacation = () => request("GET", "/v1/players/me/vacation");

/** Begins a vacation now of `seconds` (3,600 to 2,592,000) from the balance. @param {number} seconds @returns {Promise<Vacation>} */
export const takeVacation = (seconds) => request("POST", "/v1/players/me/vacation", { seconds });

/** Ends the vacation being taken, giving back what was not used. @returns {Promise<Vacation>} */
export const endVacation = () => request("DELETE", "/v1/players/me/vacation");

/** Turns automatic vacation on or off. @param {boolean} auto @returns {Promise<Vacation>} */
export const setVacationAuto = (auto) => request("PATCH", "/v1/players/me/vacation", { auto });
