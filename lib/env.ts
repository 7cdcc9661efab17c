/**
 * Every environment variable Verdict reads (app, worker, CLI, scripts), parsed with one zod schema.
 * `npm start`, `npm run worker`, the CLI and the server's start hook call `checkEnv()` first, so
 * a malformed value stops them with the variable's name and what it expects instead of falling
 * back silently or becoming NaN later; everything else reads `env()`.
 *
 * `env()` re-parses only when a variable it knows has changed (one string compare otherwise):
 * the CLI switches the job mode before it runs the server's code, and tests set variables
 * after modules are imported. An empty value means unset, as it did where each was read before.
 */
import { z } from "zod";

const text = z.string();
const trimmed = z.string().trim();
/** "1" on, "0" (or unset) off. */
const flag = z.enum(["0", "1"], { error: 'expected "1" (on) or "0" (off)' });
const positiveInt = (what: string) =>
  z
    .string()
    .regex(/^\d+$/, `expected ${what}, a positive whole number`)
    .transform(Number)
    .refine((n) => n > 0 && Number.isSafeInteger(n), `expected ${what}, a positive whole number`);
const postgresUrl = z
  .string()
  .refine(
    (s) => /^postgres(ql)?:\/\/./.test(s) && URL.canParse(s),
    "expected a postgresql://user@host:port/database connection string",
  );
const httpUrl = z
  .string()
  .trim()
  .refine((s) => /^https?:\/\/./.test(s) && URL.canParse(s), "expected an http(s):// address");
const port = positiveInt("a TCP port").refine((n) => n < 65536, "expected a TCP port (1–65535)");

const schema = z.object({
  // Set by Node/Next.js, not by the operator.
  NODE_ENV: z
    .enum(["development", "production", "test"], { error: "expected development, production or test" })
    .optional(),
  /** Build-time: next.config.ts's output folder (the benchmarks build into their own). */
  NEXT_DIST_DIR: text.optional(),
  // Database (lib/db/connect.ts).
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_MIGRATION_URL: postgresUrl.optional(),
  DATABASE_POOL_SIZE: positiveInt("the pg pool size per app server").default(10),
  PGUSER: text.optional(),
  VERDICT_DATA_DIR: text.optional(),
  /** "1": a production server may run on the embedded PGlite (no DATABASE_URL) — an explicit choice. */
  VERDICT_EMBEDDED_DATABASE: flag.optional(),
  // Server.
  PORT: port.optional(),
  AUTH_SECRET: text.optional(),
  AUTH_URL: httpUrl.optional(),
  VERDICT_PUBLIC_URL: httpUrl.optional(),
  VERDICT_DEMO: flag.optional(),
  VERDICT_DEMO_SIM_PORT: port.optional(),
  VERDICT_TRUSTED_PROXIES: text.optional(),
  VERDICT_SMTP_URL: trimmed.optional(),
  VERDICT_MAIL_FROM: trimmed.optional(),
  VERDICT_PDF_SIGNING_P12: text.optional(),
  VERDICT_PDF_SIGNING_PASSPHRASE: text.optional(),
  VERDICT_PDF_SIGNING_DIR: text.optional(),
  // Jobs (lib/server/runs/queue.ts): "inline" runs them in this process even with a PostgreSQL server.
  VERDICT_JOBS: z.enum(["inline"], { error: 'expected "inline" (or unset: the queue)' }).optional(),
  /** "0": this process queues jobs but does not work them. */
  VERDICT_WORKER: flag.default("1"),
  // Uploads (lib/server/imports/files.ts).
  VERDICT_IMPORT_MAX_BYTES: positiveInt("the largest dataset or predictions file in bytes").default(2 * 1024 ** 3),
  VERDICT_IMPORT_MAX_PUBLIC_BYTES: positiveInt("the largest leaderboard or serving file in bytes").default(
    50 * 1024 ** 2,
  ),
  VERDICT_IMPORT_MAX_ROWS: positiveInt("the most data rows in one file").default(20_000_000),
  VERDICT_IMPORT_KEEP_BYTES: positiveInt("the largest file kept whole in the database, in bytes").default(
    10 * 1024 ** 2,
  ),
  VERDICT_IMPORT_TIMING: flag.optional(),
  // The harness (lib/harness, lib/server/harness): validated here; read there.
  VERDICT_SECRETS_KEY: trimmed.optional(),
  VERDICT_ALLOW_LINK_LOCAL_ENDPOINTS: flag.optional(),
  VERDICT_HARNESS_STALL_MS: positiveInt("milliseconds").optional(),
  VERDICT_HARNESS_MAX_ATTEMPTS: positiveInt("attempts per item").optional(),
  VERDICT_HARNESS_BACKOFF_MS: positiveInt("milliseconds").optional(),
  VERDICT_HARNESS_WORKER_SLOTS: positiveInt("requests in flight from this process").optional(),
  // The CLI.
  VERDICT_TOKEN: text.optional(),
  VERDICT_PASSWORD: text.optional(),
  // The demo and end-to-end servers (scripts/demo.ts, scripts/e2e-*.ts).
  VERDICT_SKIP_BUILD: flag.optional(),
  E2E_DATABASE_URL: postgresUrl.optional(),
  E2E_PORT: port.optional(),
  E2E_SKIP_BUILD: flag.optional(),
  E2E_PRODUCTION_DATABASE_URL: postgresUrl.optional(),
  E2E_PRODUCTION_PORT: port.optional(),
});

export type Env = z.infer<typeof schema>;
export type EnvName = keyof Env;
const NAMES = Object.keys(schema.shape) as EnvName[];

/** A malformed environment: one line per variable, naming it and what it expects. */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}

function raw(): Record<string, string | undefined> {
  // An empty value is unset (`FOO= npm start`), as it was for every variable before.
  return Object.fromEntries(NAMES.map((name) => [name, process.env[name] === "" ? undefined : process.env[name]]));
}

let cached: { key: string; value: Env } | undefined;

/** The parsed environment; throws an EnvError naming each malformed variable. */
export function env(): Env {
  const values = raw();
  const key = JSON.stringify(values);
  if (cached?.key === key) return cached.value;
  const result = schema.safeParse(values);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        return `${name}=${JSON.stringify(values[name])}: ${issue.message}`;
      }),
    );
  }
  cached = { key, value: result.data };
  return result.data;
}

/**
 * Why a production server may not run on this environment's database, or null when it may: without
 * DATABASE_URL it would quietly keep a committee's records in an embedded folder of one machine,
 * so that takes the operator's explicit VERDICT_EMBEDDED_DATABASE=1 (the demo sets it itself).
 */
export function embeddedDatabaseRefusal(parsed: Env): string | null {
  if (parsed.DATABASE_URL || parsed.VERDICT_EMBEDDED_DATABASE === "1") return null;
  return (
    "Verdict refuses to start: DATABASE_URL is not set.\n" +
    "Set it to your PostgreSQL server (export DATABASE_URL=postgresql://user:password@host:5432/verdict), " +
    `or set VERDICT_EMBEDDED_DATABASE=1 to run on the embedded PGlite database in ${parsed.VERDICT_DATA_DIR ?? "./data/pglite"} ` +
    "(one machine, one process: a trial, not a committee's records). `npm run demo` runs the demo."
  );
}

/**
 * The start-up check: the environment parses and, for a production server, AUTH_SECRET is set
 * (without it sessions would be signed with nothing secret) and — when it is about to serve
 * (`serving`; not while `next build` loads the app) — the database is a deliberate choice
 * (embeddedDatabaseRefusal). Prints what to fix and exits 1.
 */
export function checkEnv({ production, serving }: { production?: boolean; serving?: boolean } = {}): Env {
  let parsed: Env;
  try {
    parsed = env();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`Verdict refuses to start: the environment is malformed.\n${error.message}`);
    process.exit(1);
  }
  if ((production ?? parsed.NODE_ENV === "production") && !parsed.AUTH_SECRET) {
    console.error(
      "Verdict refuses to start: AUTH_SECRET is not set.\n" +
        "Set it to a long random value (for example: openssl rand -base64 32), or run `npm run demo` for the demo.",
    );
    process.exit(1);
  }
  const refusal = (production ?? parsed.NODE_ENV === "production") && serving ? embeddedDatabaseRefusal(parsed) : null;
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  return parsed;
}

/** The address users reach this server at (VERDICT_PUBLIC_URL, else AUTH_URL), for links in mails and logs. */
export function publicUrlOf(parsed: Env): string | null {
  const url = parsed.VERDICT_PUBLIC_URL || parsed.AUTH_URL;
  return url ? url.replace(/\/+$/, "").replace(/\/api\/auth$/, "") : null;
}

/** A variable the user names at run time (`verdict run endpoint --api-key-env NAME`). */
export const namedVariable = (name: string): string | undefined => process.env[name];

/**
 * Sets variables for this process and the processes it starts (the CLI choosing how jobs run
 * before it calls the server's code).
 */
export function setEnv(values: Partial<Record<EnvName, string>>): void {
  Object.assign(process.env, values);
}

/** A copy of this process's whole environment, for a child process to inherit (scripts). */
export const inheritedEnv = (): NodeJS.ProcessEnv => ({ ...process.env });
