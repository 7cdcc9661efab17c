
export const HELP = `usage: verdict audit verify [--json]

Recomputes every hash of the audit trail from the stored rows, in order, against the database at
DATABASE_URL (or the embedded database in ./data/pglite when unset; stop the app first).

  --json    print the result as JSON

Exit code 0: the chain is intact. 1: a broken link (the first one is printed). 2: invalid options.`;

// The domain code imports "server-only", which only resolves under the react-server condition:
// unless the launcher already started this process with it, the command re-runs itself once.
const underReactServer = () => process.execArgv.includes("--conditions=react-server");

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  if (sub !== "verify" || rest.some((a) => a !== "--json")) {
    process.stderr.write(HELP + "\n");
    return 2;
  }
  if (!underReactServer()) {
    // bin/verdict.mjs starts server commands with this condition; a direct `tsx cli/verdict.ts` does not.
    process.stderr.write("verdict audit: run it as `npx verdict audit verify` (it needs Node's react-server condition).\n");
    return 2;
  }

  const { database } = await import("../../lib/server/db.ts");
  const { verifyAuditChainWith } = await import("../../lib/server/audit-verify.ts");
  const db = await database();
  try {
    const result = await verifyAuditChainWith(db.prisma);
    if (rest.includes("--json")) process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    else if (result.intact) process.stdout.write(`Audit chain intact: ${result.checked} events checked; head hash ${result.headHash}\n`);
    else {
      const b = result.firstBroken!;
      process.stdout.write(`Audit chain BROKEN at event ${b.id} (${b.reason}): ${b.message}\n  expected ${b.expected}\n  found    ${b.found}\n${result.checked} events before it are intact.\n`);
    }
    return result.intact ? 0 : 1;
  } finally {
    await db.close();
  }
}

