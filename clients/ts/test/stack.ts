// The TypeScript client against a running stack (tests/integration/test_ts_client.py starts one
// and runs this with the gateway's URL): create a match, read a seat's view, send a legal move,
// meet typed refusals, and play over the per-seat WebSocket URL of the create reply.
// It prints one JSON line per step and exits with 1 on the first failure.
//
//   node --experimental-websocket test/build/test/stack.js http://127.0.0.1:8000

import {
  ApiError,
  GamehallClient,
  MatchSocket,
  SocketClosed,
  gameView,
  type Accepted,
  type ServerFrame,
  type UgolkiCommand,
  type UgolkiView,
  type ViewFrame,
} from "@gamehall/client";

declare const process: { argv: string[]; exitCode?: number };

function check(condition: unknown, what: string, detail?: unknown): asserts condition {
  if (!condition) throw new Error(`${what}: ${JSON.stringify(detail)}`);
}

function step(name: string, facts: Record<string, unknown>): void {
  console.log(JSON.stringify({ step: name, ...facts }));
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("the call was not refused");
}

/** The frames of `socket` until one `matches`, within 20 s. */
async function until<F extends ServerFrame>(
  socket: MatchSocket,
  matches: (frame: ServerFrame) => frame is F,
): Promise<F> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const left = deadline - Date.now();
    check(left > 0, "no such frame in time");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = await Promise.race([
      socket.next(),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left))),
    ]).finally(() => clearTimeout(timer));
    check(frame !== null, "the socket ended or went quiet");
    if (matches(frame)) return frame;
  }
}

const freshView = (socket: MatchSocket) => (frame: ServerFrame): frame is ViewFrame =>
  frame.type === "view" && !socket.isStale(frame.view);

async function main(base: string): Promise<void> {
  const gh = new GamehallClient({ baseUrl: base });

  const games = await gh.listGames();
  check(games.some((g) => g.game === "ugolki"), "ugolki is listed", games.map((g) => g.game));

  const created = await gh.createMatch({ game: "ugolki", preset: "mini-3x3", players: ["ann", "bob"] });
  const [white, black] = created.seats;
  check(white.seat === "white" && black.seat === "black", "the people's seats", created.seats);
  for (const seat of created.seats) {
    check(seat.websocket.startsWith("ws://") && seat.websocket.endsWith(`?token=${seat.token}`), "seat socket", seat);
  }
  step("created", { match_id: created.match_id, seats: created.seats.map((s) => s.seat), websocket: white.websocket });

  const view = await gh.getMatch(created.match_id, {}, { credential: white.token });
  check(view.game === "ugolki", "the view is Ugolki's", view.game);
  const board: UgolkiView | undefined = view.game_view; // narrowed by `game`
  const legal = view.legal_moves ?? [];
  check(view.viewer === "white" && legal.length > 0 && board?.white.length === 9, "white's view", view);
  step("view", { viewer: view.viewer, seq: view.seq, to_move: view.to_move, legal_moves: legal.length });

  const illegal: UgolkiCommand = { type: "move_piece.v1", path: ["a1", "a2"] };
  const refused = await refusal(gh.postCommand(created.match_id, { command: illegal }, {}, { credential: white.token }));
  check(refused.status === 409 && refused.rejected.type === "rejected.v1", "a refused move", refused.body);
  const badToken = await refusal(
    gh.postCommand(created.match_id, { command: legal[0].command }, { authorization: "Bearer white.not-a-token" }),
  );
  const unknown = await refusal(gh.getMatch("no-such-match"));
  step("refused", {
    status: refused.status,
    code: refused.code,
    rejected: refused.rejected,
    bad_token: [badToken.status, badToken.code],
    unknown: [unknown.status, unknown.code],
  });

  const accepted: Accepted = await gh.postCommand(
    created.match_id,
    { command: legal[0].command, command_id: "m1" },
    {},
    { credential: white.token },
  );
  check(accepted.type === "accepted.v1" && accepted.seq === view.seq + 1, "the move is accepted", accepted);
  step("accepted", { type: accepted.type, seq: accepted.seq, command_id: accepted.command_id });

  // Black plays over its own socket, the URL of the create reply as it is.
  const socket = await gh.openSocket(black.websocket);
  const first = await until(socket, freshView(socket));
  const blackView = gameView(first.view);
  check(blackView.game === "ugolki" && first.view.to_move[0] === "black", "black's view", first.view);
  const blackMoves = blackView.legal_moves ?? [];
  check(blackMoves.length > 0 && socket.seq === accepted.seq, "black may move", { seq: socket.seq });
  const sent = socket.send(blackMoves[0].command);
  // Its reply and the view after its decision, in whichever order they come.
  let reply: Extract<ServerFrame, { type: "reply" }> | null = null;
  let after: ViewFrame = first;
  while (reply === null || after.view.seq < socket.accepted) {
    const frame = await until(socket, (f): f is ServerFrame => true);
    if (frame.type === "reply") reply = frame;
    if (frame.type === "view" && !socket.isStale(frame.view)) after = frame;
  }
  check(reply.command_id === sent && reply.reply.type === "accepted.v1", "black's move", reply);
  check(socket.accepted === reply.reply.seq, "the socket notes the accepted seq", socket.accepted);
  check(after.view.to_move[0] === "white", "the view after it", after.view);
  const again = socket.send(blackMoves[0].command);
  const rejected = await until(socket, (f): f is Extract<ServerFrame, { type: "reply" }> => f.type === "reply");
  check(rejected.command_id === again && rejected.reply.type === "rejected.v1", "a refusal on the socket", rejected);
  step("socket", {
    view_seq: first.view.seq,
    reply: reply.reply.type,
    accepted: socket.accepted,
    next_view_seq: after.view.seq,
    refused: rejected.reply.type === "rejected.v1" ? [rejected.reply.status, rejected.reply.code] : null,
  });
  socket.close();

  let closed: SocketClosed | null = null;
  try {
    const wrong = await gh.openSocket(gh.socketUrl(created.match_id, { token: "black.not-a-token" }));
    await until(wrong, (f): f is ServerFrame => true);
  } catch (error) {
    if (!(error instanceof SocketClosed)) throw error;
    closed = error;
  }
  check(closed?.closeCode === 4401 && closed.error?.code === "bad_token", "a wrong token's socket", closed);
  step("socket_refused", { close_code: closed.closeCode, code: closed.error?.code });
  console.log(JSON.stringify({ ok: true }));
}

main(process.argv[2]).catch((error) => {
  console.log(JSON.stringify({ ok: false, error: String(error?.stack ?? error) }));
  process.exitCode = 1;
});
