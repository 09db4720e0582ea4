// gamehall's TypeScript client: every schema of /openapi.json and of the match socket as a type
// (schemas.ts), GamehallClient with a method per operation (operations.ts), and the runtime
// (runtime.ts: ApiError, MatchSocket, SocketClosed). docs/api.md "The TypeScript client".

import type { GameMatchView, MatchView } from "./schemas.js";

export * from "./schemas.js";
export { GamehallClient } from "./operations.js";
export {
  ApiError,
  BaseClient,
  MatchSocket,
  SocketClosed,
  commandId,
  type CallOptions,
  type ClientOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./runtime.js";

/**
 * A socket's view (`ViewFrame.view`, a `MatchView`) as the game's own view type: the same JSON as
 * `GET /api/matches/{match_id}`, so switching on `game` narrows `game_view` and `legal_moves`.
 */
export function gameView(view: MatchView): GameMatchView {
  return view as GameMatchView;
}
