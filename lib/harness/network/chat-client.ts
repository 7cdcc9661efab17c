import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { StringDecoder } from "node:string_decoder";
import { endpointUrlProblem, guardedLookup } from "./address-guard";
import { SseParser } from "../sse";
import type { ChatMessage, EvalProtocol } from "../protocol";
import type { TokenLogprob } from "../parse-output";

/**
 * The harness's client for an OpenAI-compatible chat-completions endpoint, built for low overhead
 * (the benchmark holds it to ≥ 0.8× autocannon's requests per second): one undici Pool per
 * endpoint with keep-alive and one connection per concurrent request, a constant request prefix
 * serialised once, SSE parsed incrementally as bytes arrive (sse.ts), and every
 * timestamp taken with performance.now() when a network chunk arrives — the time the tokens in it
 * reached this process. Calls go only to the configured base URL; redirects are not followed, and
 * every connection's address is checked (address-guard.ts).
 */
export interface EndpointTarget {
  baseUrl: string;
  model: string;
  apiKey: string | null;
}

export interface CallResult {
  /** The response was read to its end and understood. */
  completed: boolean;
  status: number | null;
  error: string | null;
  /** Worth another attempt: 429, 5xx, a connection failure or a stall. */
  retriable: boolean;
  /** Seconds the server asked to wait (Retry-After), if it said. */
  retryAfterS: number | null;
  text: string;
  firstTokenLogprobs: TokenLogprob[] | null;
  inputTokens: number | null;
  outputTokens: number | null;
  ttftMs: number | null;
  /** Gaps between consecutive chunks that carried content (vLLM's ITL: every inter-chunk gap). */
  itlMs: number[];
  e2eMs: number;
  /** Epoch ms when the request was sent. */
  startedAt: number;
}

export interface ClientOptions {
  connections: number;
  /** A response silent for this long is given up (a stall). */
  stallTimeoutMs?: number;
  allowLinkLocal?: boolean;
}

interface Chunk {
  choices?: {
    delta?: { content?: string | null };
    logprobs?: { content?: { top_logprobs?: TokenLogprob[] }[] } | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

export class ChatClient {
  private readonly pool: Pool;
  private readonly path: string;
  private readonly origin: string;
  private readonly stallMs: number;
  private readonly headers: Record<string, string>;
  private readonly prefix: string;
  private readonly wantsLogprobs: boolean;
  private readonly watched = new WeakMap<AbortSignal, Set<StreamedCall>>();

  constructor(target: EndpointTarget, protocol: Pick<EvalProtocol, "sampling" | "score">, options: ClientOptions) {
    const problem = endpointUrlProblem(target.baseUrl, options.allowLinkLocal);
    if (problem) throw new Error(`Endpoint ${target.baseUrl} refused: ${problem}`);
    const url = new URL(target.baseUrl);
    const stall = options.stallTimeoutMs ?? 60_000;
    this.pool = new Pool(url.origin, {
      connections: Math.max(1, options.connections),
      pipelining: 1,
      keepAliveTimeout: 60_000,
      headersTimeout: stall,
      bodyTimeout: stall,
      connect: { lookup: guardedLookup(options.allowLinkLocal) } as never,
    });
    this.origin = url.origin;
    this.stallMs = stall;
    this.path = `${url.pathname.replace(/\/$/, "")}/chat/completions`;
    this.headers = {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
    };
    this.wantsLogprobs = protocol.score.kind === "logprobs";
    const s = protocol.sampling;
    const fixed = {
      model: target.model,
      stream: true,
      stream_options: { include_usage: true },
      temperature: s.temperature,
      max_tokens: s.maxTokens,
      ...(s.stop.length ? { stop: s.stop } : {}),
      ...(this.wantsLogprobs ? { logprobs: true, top_logprobs: 5 } : {}),
    };
    this.prefix = JSON.stringify(fixed).slice(0, -1) + ',"messages":';
  }

  /**
   * One request. undici's low-level dispatch (no Readable per response): the handler (StreamedCall)
   * sees each network chunk as it arrives, stamps it and feeds the SSE parser; the cheaper the
   * parsing, the closer to a load generator's rate (the benchmark measured 0.42× autocannon with a
   * Readable, eventsource-parser and TextDecoder on this path).
   */
  call(messages: readonly ChatMessage[], signal?: AbortSignal): Promise<CallResult> {
    return new Promise<CallResult>((resolve) => {
      const call = new StreamedCall(this.wantsLogprobs, this.stallMs, resolve, signal ? this.watch(signal) : null);
      if (signal?.aborted) call.cancel();
      this.pool.dispatch(
        {
          origin: this.origin,
          path: this.path,
          method: "POST",
          headers: this.headers,
          body: this.prefix + JSON.stringify(messages) + "}",
        },
        call as unknown as Parameters<Pool["dispatch"]>[1],
      );
    });
  }

  /**
   * The calls in flight under `signal`, aborted together by one listener: an EventTarget listener
   * added and removed per request showed in the benchmark's profile.
   */
  private watch(signal: AbortSignal): Set<StreamedCall> {
    let calls = this.watched.get(signal);
    if (!calls) {
      const set = new Set<StreamedCall>();
      this.watched.set(signal, set);
      signal.addEventListener("abort", () => set.forEach((c) => c.cancel()), { once: true });
      calls = set;
    }
    return calls;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * One request's handler, in undici's handler interface as Pool.dispatch takes it (the
 * controller-style one needs a wrapper). A class, so a request allocates one object rather than a
 * closure per callback (tsx's keep-names transform also gave each of those closures a name with
 * Object.defineProperty, per request).
 */
class StreamedCall {
  private readonly t0 = performance.now();
  private readonly result: CallResult = {
    completed: false,
    status: null,
    error: null,
    retriable: false,
    retryAfterS: null,
    text: "",
    firstTokenLogprobs: null,
    inputTokens: null,
    outputTokens: null,
    ttftMs: null,
    itlMs: [],
    e2eMs: 0,
    startedAt: Date.now(),
  };
  /** When the network chunk being parsed arrived. */
  private now = this.t0;
  private last: number | null = null;
  private done = false;
  private broken: string | null = null;
  private errorBody = "";
  private decoder: StringDecoder | null = null;
  private parser: SseParser | null = null;
  private abort: ((error?: Error) => void) | null = null;
  private cancelled = false;

  constructor(
    private readonly wantsLogprobs: boolean,
    private readonly stallMs: number,
    private readonly resolve: (result: CallResult) => void,
    /** The calls in flight under the run's signal (ChatClient.watch), this one among them until it ends. */
    private readonly group: Set<StreamedCall> | null,
  ) {
    group?.add(this);
  }

  cancel() {
    this.cancelled = true;
    this.abort?.(abortError());
  }

  onConnect(abort: (error?: Error) => void) {
    if (this.cancelled) return abort(abortError());
    this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]) {
    this.result.status = statusCode;
    if (statusCode === 429 || statusCode >= 500) {
      this.result.retriable = true;
      this.result.retryAfterS = retryAfterOf(rawHeaders);
    }
    return true;
  }

  onData(bytes: Buffer) {
    this.now = performance.now();
    if (this.ok()) {
      this.parser ??= new SseParser((data) => this.event(data));
      this.parser.feed((this.decoder ??= new StringDecoder("utf8")).write(bytes));
    } else if (this.errorBody.length < 500) this.errorBody += bytes.toString("utf8");
    return true;
  }

  onComplete() {
    const result = this.result;
    if (!this.ok()) result.error = `HTTP ${result.status}: ${errorMessage(this.errorBody.slice(0, 500))}`;
    else if (this.broken) result.error = this.broken;
    else if (!this.done) result.error = "the stream ended without [DONE]";
    else result.completed = true;
    this.finish();
  }

  onError(error: Error) {
    const e = error as Error & { code?: string };
    this.result.error =
      e.code === "UND_ERR_BODY_TIMEOUT" || e.code === "UND_ERR_HEADERS_TIMEOUT"
        ? `stalled: no bytes for ${this.stallMs} ms`
        : e.message;
    this.result.retriable = e.name !== "AbortError" && e.code !== "UND_ERR_ABORTED" && e.code !== "EREFUSED_ADDRESS";
    this.finish();
  }

  private ok() {
    const status = this.result.status;
    return status !== null && status >= 200 && status < 300;
  }

  private finish() {
    this.result.e2eMs = performance.now() - this.t0;
    this.group?.delete(this);
    this.resolve(this.result);
  }

  /** One SSE event's data. */
  private event(data: string) {
    if (this.broken || this.done) return;
    if (data === "[DONE]") {
      this.done = true;
      return;
    }
    // Every event is parsed: looking for "content" or "usage" in the text first, to skip the one
    // event a response without either, cost more than parsing it (a search whose first character,
    // the quote, recurs throughout the event). Only an event that could carry either breaks the
    // stream when it is not JSON; the others carry nothing the run stores, as before.
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      if (data.includes('"content"') || data.includes('"usage"'))
        this.broken = `malformed JSON in the stream: ${data.slice(0, 80)}`;
      return;
    }
    const result = this.result;
    if (chunk.usage) {
      result.inputTokens = chunk.usage.prompt_tokens ?? null;
      result.outputTokens = chunk.usage.completion_tokens ?? null;
    }
    const choice = chunk.choices?.[0];
    const content = choice?.delta?.content;
    if (content) {
      if (this.last === null) result.ttftMs = this.now - this.t0;
      else result.itlMs.push(this.now - this.last);
      this.last = this.now;
      result.text += content;
      if (result.firstTokenLogprobs === null && this.wantsLogprobs)
        result.firstTokenLogprobs = choice?.logprobs?.content?.[0]?.top_logprobs ?? null;
    }
  }
}

function abortError(): Error {
  return Object.assign(new Error("the run was cancelled"), { name: "AbortError" });
}

/** Retry-After in seconds from undici's raw header list (name, value, name, value…). */
function retryAfterOf(raw: Buffer[]): number | null {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toString("latin1").toLowerCase() === "retry-after") {
      const v = Number(raw[i + 1]!.toString("latin1"));
      return Number.isFinite(v) ? v : null;
    }
  }
  return null;
}

function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const m = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (m) return m;
  } catch {
    // not JSON: the text itself
  }
  return body.trim() || "(empty body)";
}

/**
 * Calls until a non-retriable outcome or `maxAttempts`: 429 and 5xx (and lost connections and
 * stalls) wait `baseDelayMs · 2^(attempt−1)` with ±25% jitter, or the server's Retry-After when
 * it is longer (capped at 30 s). Returns the last attempt's result and the number of attempts.
 */
export async function callWithRetries(
  client: ChatClient,
  messages: readonly ChatMessage[],
  options: { maxAttempts: number; baseDelayMs: number; signal?: AbortSignal },
): Promise<CallResult & { attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const result = await client.call(messages, options.signal);
    if (result.completed || !result.retriable || attempt >= options.maxAttempts || options.signal?.aborted)
      return Object.assign(result, { attempts: attempt });
    const backoff = options.baseDelayMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
    const wait = Math.min(30_000, Math.max(backoff, (result.retryAfterS ?? 0) * 1000));
    await new Promise((r) => setTimeout(r, wait));
  }
}
