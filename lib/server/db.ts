import "server-only";
import { openDatabase, type Database } from "@/lib/db/connect";
import type { PrismaClient } from "@/lib/generated/prisma/client";

// One database per server process, kept on globalThis so dev-mode module reloads reuse it
// (a second PGlite opener on the same folder would be refused by its lock).
const holder = globalThis as typeof globalThis & { __verdictDatabase?: Promise<Database> };

export function database(): Promise<Database> {
  holder.__verdictDatabase ??= openDatabase();
  return holder.__verdictDatabase;
}

export async function db(): Promise<PrismaClient> {
  return (await database()).prisma;
}

/** The client inside `$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
