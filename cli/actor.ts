import { actorByEmail, type Actor } from "../lib/server/actors.ts";
import { actorForToken } from "../lib/server/identity/api-tokens.ts";
import { AppError } from "../lib/server/errors.ts";
import { env } from "../lib/env.ts";

/**
 * Who a command acts as, shared by every command that acts as a user (import, decision create):
 * `--as EMAIL` (an operator with database access acting for that user), else `--token vdt_…`,
 * else `$VERDICT_TOKEN`. The token is checked by the server's own `actorForToken` (SHA-256
 * lookup, revocation, active user), so a token works on the command line exactly when it works
 * on the API. Runs under the react-server condition (bin/verdict.mjs), like all server commands.
 */

export const ACTOR_OPTIONS = {
  as: { type: "string" },
  token: { type: "string" },
} as const;

export const ACTOR_HELP = `  --as EMAIL               act as this user (operator, with database access)
  --token TOKEN            act as the token's user (default: $VERDICT_TOKEN)`;

/** Thrown when the command line does not say who acts: a usage error (exit 2), not a refusal. */
export class MissingActorError extends Error {
  constructor(verb: string) {
    super(`say who ${verb}: --as EMAIL or --token TOKEN (or VERDICT_TOKEN)`);
  }
}

/** Checks, before any database work, that the command line says who acts. */
export function requireActorOption(options: { as?: string; token?: string }, verb = "acts"): void {
  if (!options.as && !(options.token ?? env().VERDICT_TOKEN)) throw new MissingActorError(verb);
}

export async function resolveActor(options: { as?: string; token?: string }, verb = "acts"): Promise<Actor> {
  requireActorOption(options, verb);
  const token = options.token ?? env().VERDICT_TOKEN;
  if (options.as) {
    const actor = await actorByEmail(options.as);
    if (!actor) throw new AppError("UNAUTHENTICATED", `No active user ${options.as}.`);
    return actor;
  }
  const actor = await actorForToken(token ?? "");
  if (!actor) throw new AppError("UNAUTHENTICATED", "The token is unknown or revoked, or its user is inactive.");
  return actor;
}
