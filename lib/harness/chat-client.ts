import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { StringDecoder } from "node:string_decoder";
import { endpointUrlProblem, guardedLookup } from "./address-guard";
import { SseParser } from "./sse";
import type { ChatMessage, EvalProtocol } from "./protocol";
import type { TokenLogprob } from "./parse-output";

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
   * One request. undici's low-level dispatch (no Readable per response): the handler sees each
   * network chunk as it arrives, stamps it and feeds the SSE parser; the cheaper the parsing, the
   * closer to a load generator's rate (the benchmark measured 0.42× autocannon with a Readable,
   * eventsource-parser and TextDecoder on this path).
   */
  call(messages: readonly ChatMessage[], signal?: AbortSignal): Promise<CallResult> {
    const startedAt = Date.now();
    const t0 = performance.now();
    const result: CallResult = {
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
      startedAt,
    };
    return new Promise<CallResult>((resolve) => {
      let now = t0;
      let last: number | null = null;
      let done = false;
      let broken: string | null = null;
      let errorBody = "";
      const decoder = new StringDecoder("utf8");
      const parser = new SseParser((data) => {
        if (broken || done) return;
        if (data === "[DONE]") {
          done = true;
          return;
        }
        // An event with neither content nor usage (the role announcement, finish_reason) carries
        // nothing the run stores: not parsing it saves a fifth of the parsing.
        if (!data.includes('"content"') && !data.includes('"usage"')) return;
        let chunk: Chunk;
        try {
          chunk = JSON.parse(data) as Chunk;
        } catch {
          broken = `malformed JSON in the stream: ${data.slice(0, 80)}`;
          return;
        }
        if (chunk.usage) {
          result.inputTokens = chunk.usage.prompt_tokens ?? null;
          result.outputTokens = chunk.usage.completion_tokens ?? null;
        }
        const choice = chunk.choices?.[0];
        const content = choice?.delta?.content;
        if (content) {
          if (last === null) result.ttftMs = now - t0;
          else result.itlMs.push(now - last);
          last = now;
          result.text += content;
          if (result.firstTokenLogprobs === null && this.wantsLogprobs)
            result.firstTokenLogprobs = choice?.logprobs?.content?.[0]?.top_logprobs ?? null;
        }
      });
      let onAbort: (() => void) | null = null;
      const finish = () => {
        result.e2eMs = performance.now() - t0;
        if (onAbort) signal?.removeEventListener("abort", onAbort);
        resolve(result);
      };
      const ok = () => result.status !== null && result.status >= 200 && result.status < 300;
      this.pool.dispatch(
        {
          origin: this.origin,
          path: this.path,
          method: "POST",
          headers: this.headers,
          body: this.prefix + JSON.stringify(messages) + "}",
          signal,
        } as Parameters<Pool["dispatch"]>[0],
        {
          // undici's handler interface as Pool.dispatch takes it (the controller-style one needs a wrapper).
          onConnect: (abort: (error?: Error) => void) => {
            if (!signal) return;
            if (signal.aborted) return abort(abortError());
            onAbort = () => abort(abortError());
            signal.addEventListener("abort", onAbort, { once: true });
          },
          onHeaders: (statusCode: number, rawHeaders: Buffer[]) => {
            result.status = statusCode;
            if (statusCode === 429 || statusCode >= 500) {
              result.retriable = true;
              result.retryAfterS = retryAfterOf(rawHeaders);
            }
            return true;
          },
          onData: (bytes: Buffer) => {
            now = performance.now();
            if (ok()) parser.feed(decoder.write(bytes));
            else if (errorBody.length < 500) errorBody += bytes.toString("utf8");
            return true;
          },
          onComplete: () => {
            if (!ok()) result.error = `HTTP ${result.status}: ${errorMessage(errorBody.slice(0, 500))}`;
            else if (broken) result.error = broken;
            else if (!done) result.error = "the stream ended without [DONE]";
            else result.completed = true;
            finish();
          },
          onError: (error: Error) => {
            const e = error as Error & { code?: string };
            result.error =
              e.code === "UND_ERR_BODY_TIMEOUT" || e.code === "UND_ERR_HEADERS_TIMEOUT"
                ? `stalled: no bytes for ${this.stallMs} ms`
                : e.message;
            result.retriable = e.name !== "AbortError" && e.code !== "UND_ERR_ABORTED" && e.code !== "EREFUSED_ADDRESS";
            finish();
          },
        } as unknown as Parameters<Pool["dispatch"]>[1],
      );
    });
  }

  close(): Promise<void> {
    return this.pool.close();
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
