import http from "node:http";
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { AddressInfo } from "node:net";

/**
 * A simulated OpenAI-compatible chat-completions endpoint on loopback: what the test suite, the
 * benchmark and the demo call instead of a model (none can be downloaded here). It speaks what
 * vLLM, TGI, llama.cpp, Ollama and OpenAI speak — `POST /v1/chat/completions`, streamed as
 * server-sent events (`data: {chunk}` … `data: [DONE]`), with `usage` and `logprobs` — and does
 * exactly what it is told, so every figure a run stores can be checked against it:
 *
 * - server-wide: time to first token and per-token latency (ms), the output format and labels;
 * - per request, by a directive in the messages: `[[sim id=a1 label=yes p=0.9 tokens=5
 *   ttft=40 itl=5 fail=429|500|malformed|contract|stall|nologprobs times=2]]` — `fail` applies to
 *   the first `times` requests of that id (every request without `times`).
 *
 * Without a directive the answer is a stable pseudo-random function of the messages.
 */
export interface SimConfig {
  ttftMs: number;
  itlMs: number;
  /** "label": the bare label; "json": {"label": …, "p": …}. */
  output: "label" | "json";
  /** [positive, negative]. */
  labels: [string, string];
  /** Wait for each token's deadline to within ~0.1 ms (a short spin after a timer) instead of a timer's ~1 ms. */
  precise: boolean;
  /** What to answer a request without a directive (the demo answers from its generated data). */
  answer?: (messages: readonly { role: string; content: string }[]) => SimDirective | null;
}

export const DEFAULT_SIM_CONFIG: SimConfig = {
  ttftMs: 0,
  itlMs: 0,
  output: "label",
  labels: ["yes", "no"],
  precise: true,
};

export interface SimDirective {
  id?: string;
  label?: string;
  p?: number;
  tokens?: number;
  ttft?: number;
  itl?: number;
  fail?: "429" | "500" | "malformed" | "contract" | "stall" | "nologprobs";
  times?: number;
}

export interface SimRequestLog {
  id: string;
  status: number;
  fail: string | null;
}

export interface SimServer {
  url: string;
  port: number;
  config: SimConfig;
  configure(patch: Partial<SimConfig>): void;
  /** Every request with a directive id answered so far, in arrival order. */
  log: SimRequestLog[];
  /** Requests received and not yet answered in full (or abandoned): what the endpoint is serving now. */
  readonly inFlight: number;
  requestsFor(id: string): number;
  reset(): void;
  close(): Promise<void>;
}

/** The prompt tokens the simulator reports: ⌈characters / 4⌉ per message (a tokenizer's rough rate). */
export function simPromptTokens(messages: readonly { content: string }[]): number {
  return messages.reduce((sum, m) => sum + Math.ceil(m.content.length / 4), 0);
}

export function parseDirective(text: string): SimDirective | null {
  const m = text.match(/\[\[sim([^\]]*)\]\]/);
  if (!m) return null;
  const d: Record<string, string> = {};
  for (const pair of (m[1] ?? "").trim().split(/\s+/)) {
    const [k, v] = pair.split("=");
    if (k && v !== undefined) d[k] = v;
  }
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  return {
    id: d.id,
    label: d.label,
    p: num(d.p),
    tokens: num(d.tokens),
    ttft: num(d.ttft),
    itl: num(d.itl),
    fail: d.fail as SimDirective["fail"],
    times: num(d.times),
  };
}

/** The output split into `tokens` pieces (the text's characters evenly, then single spaces). */
export function splitTokens(text: string, tokens: number): string[] {
  const n = Math.max(1, Math.floor(tokens));
  const pieces: string[] = [];
  const per = Math.max(1, Math.ceil(text.length / n));
  for (let i = 0; i < n; i++) {
    const piece = text.slice(i * per, (i + 1) * per);
    pieces.push(piece === "" ? " " : piece);
  }
  return pieces;
}

interface ChatRequest {
  model?: string;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  logprobs?: boolean;
  top_logprobs?: number;
}

export async function startSimServer(
  config: Partial<SimConfig> = {},
  port = 0,
  host = "127.0.0.1",
): Promise<SimServer> {
  const sim: SimState = { config: { ...DEFAULT_SIM_CONFIG, ...config }, log: [], counts: new Map(), inFlight: 0 };
  const { config: state, log, counts } = sim;
  const sockets = new Set<import("node:net").Socket>();

  const server = http.createServer((req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    sim.inFlight++;
    res.once("close", () => sim.inFlight--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => answer(sim, Buffer.concat(chunks).toString("utf8"), res));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on("connection", (s) => {
    s.setNoDelay(true);
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${actual}/v1`,
    port: actual,
    config: state,
    configure: (patch) => Object.assign(state, patch),
    log,
    get inFlight() {
      return sim.inFlight;
    },
    requestsFor: (id) => counts.get(id) ?? 0,
    reset: () => {
      log.length = 0;
      counts.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The server's mutable state: its configuration (changed by `configure`) and what it answered. */
interface SimState {
  config: SimConfig;
  log: SimRequestLog[];
  /** Requests so far per directive id (a `fail … times=n` directive counts against it). */
  counts: Map<string, number>;
  inFlight: number;
}

/** What one reply says and how fast, decided before anything is written. */
interface SimReply {
  id: string;
  fail: SimDirective["fail"] | null;
  label: string;
  p: number;
  text: string;
  pieces: string[];
  ttft: number;
  itl: number;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  created: number;
  model: string;
  lp: ReturnType<typeof logprobsOf> | undefined;
}

function answer(sim: SimState, body: string, res: http.ServerResponse) {
  const t0 = performance.now();
  const state = sim.config;
  let request: ChatRequest;
  try {
    request = JSON.parse(body) as ChatRequest;
  } catch {
    res.writeHead(400, { "content-type": "application/json" }).end('{"error":{"message":"request is not JSON"}}');
    return;
  }
  const messages = request.messages ?? [];
  const all = messages.map((m) => m.content).join("\n");
  const d = parseDirective(all) ?? state.answer?.(messages) ?? {};
  // Only requests that name an id are counted and logged: the benchmark's anonymous requests
  // must not grow the server's memory (and its garbage collection) as they go.
  const id = d.id ?? "";
  const seen = d.id === undefined ? 1 : (sim.counts.get(id) ?? 0) + 1;
  if (d.id !== undefined) sim.counts.set(id, seen);
  const fail = d.fail && (d.times === undefined || seen <= d.times) ? d.fail : null;
  const record = (status: number) => void (d.id !== undefined && sim.log.push({ id, status, fail }));

  if (fail === "429" || fail === "500") {
    record(Number(fail));
    res.writeHead(Number(fail), { "content-type": "application/json" }).end(
      JSON.stringify({
        error: { message: fail === "429" ? "rate limited (simulated)" : "internal error (simulated)" },
      }),
    );
    return;
  }
  record(200);
  const reply = planReply(state, request, d, { id, fail, p: d.p ?? hashUnit(all) });
  if (request.stream === false) sendCompletion(res, reply);
  else sendStream(state, res, reply, t0);
}

/** The reply's text, its tokens, timing and usage, from the directive and the server's configuration. */
function planReply(
  state: SimConfig,
  request: ChatRequest,
  d: SimDirective,
  known: { id: string; fail: SimDirective["fail"] | null; p: number },
): SimReply {
  const { fail, p } = known;
  const messages = request.messages ?? [];
  const [positive, negative] = state.labels;
  const label = d.label ?? (p >= 0.5 ? positive : negative);
  const text =
    fail === "contract" ? "I would rather not say." : state.output === "json" ? JSON.stringify({ label, p }) : label;
  const pieces = splitTokens(text, d.tokens ?? Math.ceil(text.length / 4));
  const usage = {
    prompt_tokens: simPromptTokens(messages),
    completion_tokens: pieces.length,
    total_tokens: simPromptTokens(messages) + pieces.length,
  };
  return {
    ...known,
    label,
    text,
    pieces,
    ttft: d.ttft ?? state.ttftMs,
    itl: d.itl ?? state.itlMs,
    usage,
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? "simulated",
    lp: request.logprobs && fail !== "nologprobs" ? logprobsOf(label, positive, negative, p) : undefined,
  };
}

/** A non-streamed reply: the whole completion at once, after the time the stream would have taken. */
function sendCompletion(res: http.ServerResponse, r: SimReply) {
  res.writeHead(200, { "content-type": "application/json" });
  const reply = {
    id: `sim-${r.id || "anon"}`,
    object: "chat.completion",
    created: r.created,
    model: r.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: r.fail === "malformed" ? undefined : r.text },
        logprobs: r.lp ? { content: [r.lp] } : null,
        finish_reason: "stop",
      },
    ],
    usage: r.usage,
  };
  setTimeout(
    () => res.end(r.fail === "malformed" ? JSON.stringify(reply).slice(0, 30) : JSON.stringify(reply)),
    r.ttft + r.itl * (r.pieces.length - 1),
  );
}

/** A streamed reply: server-sent events, each token at its deadline from the request's arrival `t0`. */
function sendStream(state: SimConfig, res: http.ServerResponse, r: SimReply, t0: number) {
  const { id, created, model, pieces, lp, fail, ttft, itl, usage } = r;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const event = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id: `sim-${id || "anon"}`, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, ...extra }] })}\n\n`;
  const frames: string[] = pieces.map((piece, i) =>
    event({ content: piece }, i === 0 && lp ? { logprobs: { content: [lp] } } : {}),
  );
  if (fail === "malformed") frames[frames.length - 1] = `data: {"choices":[{"delta":{"content":"${pieces.at(-1)}\n\n`;
  const tail = `data: ${JSON.stringify({ id: `sim-${id || "anon"}`, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: ${JSON.stringify({ id: `sim-${id || "anon"}`, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\ndata: [DONE]\n\n`;
  const head = `data: ${JSON.stringify({ id: `sim-${id || "anon"}`, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta: { role: "assistant", content: "" } }] })}\n\n`;

  if (ttft <= 0 && itl <= 0 && fail !== "stall") {
    // Answering instantly: the whole stream in one write (what the benchmark measures against).
    res.end(head + frames.join("") + tail);
    return;
  }
  res.write(head);
  let k = 0;
  const next = () => {
    if (res.destroyed) return;
    res.write(frames[k]!);
    k++;
    if (fail === "stall") return; // keeps the connection open and silent until the client gives up
    if (k >= frames.length) res.end(tail);
    else waitUntil(state, t0 + ttft + k * itl, next);
  };
  waitUntil(state, t0 + ttft, next);
}

function waitUntil(state: SimConfig, deadline: number, fn: () => void) {
  const remaining = deadline - performance.now();
  if (remaining <= 0) return fn();
  if (!state.precise) return void setTimeout(fn, remaining);
  // Timers fire up to ~1 ms late: sleep until shortly before, then yield until the deadline.
  if (remaining > 2) return void setTimeout(() => waitUntil(state, deadline, fn), remaining - 1.5);
  setImmediate(() => waitUntil(state, deadline, fn));
}

/** The first position's log-probabilities: the chosen label's token, and both labels among the top ones. */
function logprobsOf(label: string, positive: string, negative: string, p: number) {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return {
    token: label,
    logprob: Math.log(label === positive ? q : 1 - q),
    top_logprobs: [
      { token: positive, logprob: Math.log(q) },
      { token: negative, logprob: Math.log(1 - q) },
    ],
  };
}

/** A stable number in [0, 1) from text (the answer to a request without a directive). */
function hashUnit(text: string): number {
  return createHash("sha1").update(text).digest().readUInt32BE(0) / 2 ** 32;
}
