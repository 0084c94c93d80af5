// types.js: the API's types for JSDoc, from the types openapi-typescript
// generates out of openapi/openapi.yaml (the module name "boardd-openapi"
// is mapped to the generated .d.ts by tests/web/tsconfig.json, which
// type-checks this client). Nothing here runs: it only names the types.

/** @typedef {import("boardd-openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["Catalog"]} Catalog */
/** @typedef {Catalog["games"][number]} CatalogGame */
/** @typedef {Schemas["CatalogOption"]} CatalogOption */
/** @typedef {Schemas["Game"]} Game */
/** @typedef {Schemas["GameSummary"]} GameSummary */
/** @typedef {Schemas["Rematch"]} Rematch */
/** @typedef {Schemas["GameList"]} GameList */
/** @typedef {Schemas["Player"]} Player */
/** @typedef {Schemas["Action"]} Action */
/** @typedef {Schemas["Problem"]} Problem */
/** @typedef {Schemas["CreateGame"]} CreateGame */
/** @typedef {Schemas["AgentAvenueView"]} AgentAvenueView */
/** @typedef {Schemas["QuantumView"]} QuantumView */
/** @typedef {Schemas["Square"]} Square */
/** @typedef {import("boardd-openapi").operations["createPlayer"]["responses"]["201"]["content"]["application/json"]} NewPlayer */
/** @typedef {import("boardd-openapi").operations["listActions"]["responses"]["200"]["content"]["application/json"]} ActionList */
/** @typedef {import("boardd-openapi").operations["getMyGames"]["responses"]["200"]["content"]["application/json"]} MyGames */
/** @typedef {MyGames["games"][number]} MyGame */
/** @typedef {import("boardd-openapi").operations["createTicket"]["responses"]["201"]["content"]["application/json"]} Ticket */
/** @typedef {import("boardd-openapi").operations["createGame"]["responses"]["201"]["content"]["application/json"]} CreatedGame */
/** @typedef {import("boardd-openapi").operations["joinGame"]["responses"]["200"]["content"]["application/json"]} Joined */
/** @typedef {import("boardd-openapi").operations["createToken"]["responses"]["201"]["content"]["application/json"]} NewToken */
/** @typedef {import("boardd-openapi").operations["listMoves"]["responses"]["200"]["content"]["application/json"]} MoveList */
/** @typedef {MoveList["moves"][number]} LoggedMove */
/** @typedef {Schemas["Seek"]} Seek */
/** @typedef {Schemas["CreateSeek"]} CreateSeek */
/** @typedef {Schemas["Rating"]} Rating */
/** @typedef {Schemas["PushSubscription"]} PushSubscription */
/** @typedef {Schemas["EmailAddress"]} EmailAddress */
/** @typedef {Schemas["ChatMessage"]} ChatMessage */
/** @typedef {Schemas["Vacation"]} Vacation */
/** @typedef {import("boardd-openapi").operations["listPlayersChat"]["responses"]["200"]["content"]["application/json"]} ChatPage */
/** @typedef {import("boardd-openapi").operations["createReport"]["requestBody"]["content"]["application/json"]} NewReport */
/** @typedef {import("boardd-openapi").operations["createReport"]["responses"]["201"]["content"]["application/json"]} Report */
/** @typedef {import("boardd-openapi").operations["listSeeks"]["responses"]["200"]["content"]["application/json"]} SeekList */
/** @typedef {import("boardd-openapi").operations["getLeaderboard"]["responses"]["200"]["content"]["application/json"]} Leaderboard */
/** @typedef {import("boardd-openapi").operations["getPlayerProfile"]["responses"]["200"]["content"]["application/json"]} Profile */
/** @typedef {import("boardd-openapi").operations["getRatingHistory"]["responses"]["200"]["content"]["application/json"]} RatingHistory */
/** @typedef {import("boardd-openapi").operations["getPushKey"]["responses"]["200"]["content"]["application/json"]} PushKey */
/** @typedef {import("boardd-openapi").operations["listPushSubscriptions"]["responses"]["200"]["content"]["application/json"]} PushSubscriptionList */
/** @typedef {import("boardd-openapi").operations["addPushSubscription"]["requestBody"]["content"]["application/json"]} NewPushSubscription */

export {};
