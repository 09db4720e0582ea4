// The hand-written part of the client: HTTP through the global fetch, errors as ApiError, the
// retries of a 429, and the match socket (MatchSocket) with the stale-view rule of docs/api.md.
// The generated GamehallClient (operations.ts) extends BaseClient with a method per operation.

import type {
  Accepted,
  CommandFrame,
  CommandRejected,
  ErrorBody,
  ErrorFrame,
  ServerFrame,
} from "./schemas.js";

/** The part of the WebSocket API the match socket uses (the browser's and Node 22's global one). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: any) => void) | null;
  onmessage: ((event: { data: any }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: any) => void) | null;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface ClientOptions {
  /** The gateway, e.g. `http://127.0.0.1:8000` (the page's own origin when omitted in a browser). */
  baseUrl?: string;
  /** A player credential (an API token or an app's JWT) sent as `Authorization: Bearer` on every call. */
  credential?: string;
  /** `fetch` to use (the global one by default). */
  fetch?: typeof fetch;
  /** `WebSocket` to use (the global one by default; in Node 20 start node with `--experimental-websocket`). */
  WebSocket?: WebSocketConstructor;
  /** How many times a `429` is waited out (`Retry-After`) and sent again (default 50; 0: never). */
  max429Retries?: number;
}

export interface CallOptions {
  /** A seat token or player credential for this call, sent as `Authorization: Bearer`. */
  credential?: string;
  signal?: AbortSignal;
}

const MAX_WAIT_MS = 5000;

/** An error answer of the API: the HTTP `status` and the parsed `ErrorBody`. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(`${status} ${body.code}: ${body.detail}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  get code(): string {
    return this.body.code;
  }

  get detail(): string {
    return this.body.detail;
  }

  get retryAfter(): number | null {
    return this.body.retry_after ?? null;
  }

  /** The error as the `rejected.v1` reply a socket would carry (a refused command is a `409`). */
  get rejected(): CommandRejected {
    return { type: "rejected.v1", code: this.code, detail: this.detail, status: this.status };
  }
}

/** The server closed the match socket: its close code and the error frame it sent before, if any. */
export class SocketClosed extends Error {
  readonly closeCode: number | null;
  readonly error: ErrorFrame | null;

  constructor(closeCode: number | null, error: ErrorFrame | null) {
    super(`the match socket closed with ${closeCode} (${error ? `${error.code}: ${error.detail}` : "no error frame"})`);
    this.name = "SocketClosed";
    this.closeCode = closeCode;
    this.error = error;
  }
}

/** A fresh command id (an idempotency key for a retry). */
export function commandId(): string {
  const c = (globalThis as any).crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID().replace(/-/g, "");
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join("");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    if (body && typeof body.code === "string") {
      return new ApiError(response.status, { detail: "", ...body });
    }
  } catch {
    // not JSON: below
  }
  return new ApiError(response.status, { code: "http_error", detail: text.slice(0, 300) });
}

export class BaseClient {
  readonly baseUrl: string;
  credential: string | undefined;
  protected readonly fetchImpl: typeof fetch;
  protected readonly WebSocketImpl: WebSocketConstructor | undefined;
  protected readonly max429Retries: number;

  constructor(options: ClientOptions = {}) {
    const origin = (globalThis as any).location?.origin;
    this.baseUrl = (options.baseUrl ?? origin ?? "").replace(/\/+$/, "");
    this.credential = options.credential;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.WebSocketImpl = options.WebSocket ?? (globalThis as any).WebSocket;
    this.max429Retries = options.max429Retries ?? 50;
  }

  /** One request; an error answer rejects with ApiError, a `429` is sent again after `Retry-After`. */
  protected async call<T>(
    method: string,
    path: string,
    params: Record<string, unknown> | undefined,
    where: { query: string[]; headers: string[] },
    body: unknown,
    options: CallOptions = {},
  ): Promise<T> {
    const url = new URL(this.baseUrl + path, (globalThis as any).location?.href);
    const headers: Record<string, string> = { accept: "application/json" };
    for (const [name, value] of Object.entries(params ?? {})) {
      if (value === undefined || value === null) continue;
      if (where.query.includes(name)) url.searchParams.set(name, String(value));
      else if (where.headers.includes(name)) headers[name] = String(value);
      else throw new TypeError(`${method} ${path} takes no parameter ${name}`);
    }
    const credential = options.credential ?? this.credential;
    if (credential && !headers.authorization) headers.authorization = `Bearer ${credential}`;
    const init: RequestInit = { method, headers, signal: options.signal };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    for (let attempt = 0; ; attempt++) {
      const response = await this.fetchImpl(url.toString(), init);
      if (response.status === 429 && attempt < this.max429Retries) {
        const error = await errorOf(response);
        const wait = Number(error.retryAfter ?? response.headers.get("retry-after") ?? 1);
        await sleep(Math.min(Math.max((Number.isFinite(wait) ? wait : 1) * 1000, 10), MAX_WAIT_MS));
        continue;
      }
      if (response.status >= 400) throw await errorOf(response);
      if (response.status === 204) return undefined as T;
      return (await response.json()) as T;
    }
  }

  /** The match socket of `matchId` on this client's gateway (`since`: the last decision you saw). */
  socketUrl(matchId: string, options: { token?: string; since?: number; lang?: string } = {}): string {
    const url = new URL(`${this.baseUrl}/ws/matches/${encodeURIComponent(matchId)}`, (globalThis as any).location?.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("since", String(options.since ?? 0));
    if (options.token) url.searchParams.set("token", options.token);
    if (options.lang) url.searchParams.set("lang", options.lang);
    return url.toString();
  }

  /** Open a match socket: a URL of the create reply (`seats[i].websocket`, `websocket`) or of socketUrl. */
  openSocket(url: string): Promise<MatchSocket> {
    if (!this.WebSocketImpl) {
      throw new TypeError("no WebSocket: pass ClientOptions.WebSocket (Node 20: node --experimental-websocket)");
    }
    return MatchSocket.open(url, this.WebSocketImpl);
  }
}

type Waiter = { resolve: (frame: ServerFrame | null) => void; reject: (error: Error) => void };

/**
 * One match socket: `next()` (or `for await`) gives its frames in order; an error frame and the
 * close after it reject with SocketClosed, a normal close ends the frames (`null`).
 *
 * Stale views: views already on their way when you send a command still show the position before
 * it. `accepted` is the `seq` of the last accepted command seen on this socket (or told with
 * `noteAccepted` for one sent over HTTP); `isStale(view)` is true for a view older than it. A
 * client that answers views with moves skips stale views and sends at most one command per view `seq`.
 */
export class MatchSocket implements AsyncIterable<ServerFrame> {
  /** The last decision seen (reconnect with it as `since`). */
  seq = 0;
  /** The `seq` of the last accepted command: views before it are stale. */
  accepted = 0;
  private readonly frames: ServerFrame[] = [];
  private readonly waiters: Waiter[] = [];
  private error: ErrorFrame | null = null;
  private ended: Error | "closed" | null = null;

  private constructor(readonly url: string, private readonly ws: WebSocketLike) {
    ws.onmessage = (event) => this.received(event.data);
    ws.onclose = (event) => this.closed(event.code);
  }

  static open(url: string, WebSocketImpl: WebSocketConstructor): Promise<MatchSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocketImpl(url);
      const socket = new MatchSocket(url, ws);
      ws.onopen = () => resolve(socket);
      ws.onerror = () => reject(new SocketClosed(null, null));
      const onclose = ws.onclose;
      ws.onclose = (event) => {
        onclose?.(event);
        reject(new SocketClosed(event.code, socket.error));
      };
    });
  }

  /** Send a command for this socket's seat; its ReplyFrame comes with the id returned. */
  send(command: unknown, id: string = commandId()): string {
    const frame: CommandFrame = { type: "command", command, command_id: id };
    this.ws.send(JSON.stringify(frame));
    return id;
  }

  /** The next frame; `null` once the socket closed normally. */
  next(): Promise<ServerFrame | null> {
    const frame = this.frames.shift();
    if (frame) return Promise.resolve(frame);
    if (this.ended === "closed") return Promise.resolve(null);
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ServerFrame> {
    for (;;) {
      const frame = await this.next();
      if (frame === null) return;
      yield frame;
    }
  }

  /** A view older than the last accepted command (docs/api.md "Stale views"). */
  isStale(view: { seq: number }): boolean {
    return view.seq < this.accepted;
  }

  /** Note a command accepted elsewhere (over HTTP), so its older views count as stale here. */
  noteAccepted(reply: Accepted): void {
    this.accepted = Math.max(this.accepted, reply.seq);
  }

  close(code = 1000): void {
    this.ws.close(code);
  }

  private received(data: unknown): void {
    const frame = JSON.parse(String(data)) as ServerFrame;
    if (frame.type === "error") {
      this.error = frame;
      return; // the close follows
    }
    if (frame.type === "events" && frame.events.length) {
      this.seq = Math.max(this.seq, frame.events[frame.events.length - 1].seq);
    }
    if (frame.type === "reply" && frame.reply.type === "accepted.v1") this.noteAccepted(frame.reply);
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(frame);
    else this.frames.push(frame);
  }

  private closed(code: number): void {
    const normal = !this.error && (code === 1000 || code === 1001 || code === 1005);
    this.ended = normal ? "closed" : new SocketClosed(code, this.error);
    for (const waiter of this.waiters.splice(0)) {
      if (this.ended === "closed") waiter.resolve(null);
      else waiter.reject(this.ended);
    }
  }
}
