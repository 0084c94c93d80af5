// types_test.ts: what the types openapi-typescript generates from
// openapi/openapi.yaml must say.  tsc --noEmit compiles it against
// build/…/openapi.d.ts (lint.sh): every line marked @ts-expect-error must
// be a type error, every other line must compile.
import type { components } from "./openapi";

type S = components["schemas"];

// A square is a pair of integers, not any array.
const square: S["Square"] = [3, 5];
// @ts-expect-error: three numbers are not a square
const notSquare: S["Square"] = [1, 2, 3];
// @ts-expect-error: one number is not a square
const halfSquare: S["Square"] = [1];

// Options are typed per game.
const qtOptions: S["CreateGame"]["options"] = { map: "Alpha sector - Basic map", curious: "addon" };
// @ts-expect-error: a printing that does not exist
const badPrinting: S["QuantumOptions"] = { curious: "second-printing" };
// @ts-expect-error: the map is a name
const badMap: S["QuantumOptions"] = { map: 3 };

// A game's view is discriminated by its `game`.
function mapOf(g: S["Game"]): string | undefined {
  switch (g.game) {
    case "quantum":
      return g.view.map.name;
    case "agent-avenue":
      // @ts-expect-error: an Agent Avenue view has no map
      return g.view.map;
  }
}

// A listed action carries its label; a posted one may leave it out.
function labelOf(a: S["Action"]): string | undefined {
  return a.label;
}

// An Agent Avenue play names the face-up card, the face-down card, or both.
const soloPlay: S["AgentAvenuePlay"] = { type: "play", face_up: "enforcer", face_down: "saboteur" };
const partnerPlay: S["AgentAvenuePlay"] = { type: "play", face_down: "saboteur" };
// @ts-expect-error: a play without a card
const emptyPlay: S["AgentAvenuePlay"] = { type: "play" };

export { soloPlay, partnerPlay, emptyPlay, square, notSquare, halfSquare, qtOptions, badPrinting, badMap, mapOf, labelOf };
