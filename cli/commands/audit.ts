export const HELP = `usage: verdict audit verify [--head <seq>:<hash>] [--json]
       verdict audit head [--json]

Against the database at DATABASE_URL (or the embedded database in ./data/pglite when unset; stop
the app first):

  verify   recomputes every hash of the audit trail from the stored rows, in order, and checks
           every signature and pack revision against the audit event that recorded it
  head     prints the chain head (the newest event's sequence number and hash), as every export
           does: keep it, and verify against it later

  --head <seq>:<hash>   the chain must still hold that event with that hash (deleted newest
                        events break no link: only an earlier head shows them)
  --json                print the result as JSON

Exit code 0: the chain and the records are intact. 1: a problem (the first one is printed).
2: invalid options.`;

// The domain code imports "server-only", which only resolves under the react-server condition:
// unless the launcher already started this process with it, the command re-runs itself once.
const underReactServer = () => process.execArgv.includes("--conditions=react-server");

function parseOptions(rest: string[]): { json: boolean; head: string | null } | null {
  let json = false;
  let head: string | null = null;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--json") json = true;
    else if (rest[i] === "--head" && rest[i + 1]) head = rest[++i]!;
    else return null;
  }
  return { json, head };
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  const options = parseOptions(rest);
  if ((sub !== "verify" && sub !== "head") || !options || (sub === "head" && options.head)) {
    process.stderr.write(HELP + "\n");
    return 2;
  }
  if (!underReactServer()) {
    // bin/verdict.mjs starts server commands with this condition; a direct `tsx cli/verdict.ts` does not.
    process.stderr.write(
      "verdict audit: run it as `npx verdict audit verify` (it needs Node's react-server condition).\n",
    );
    return 2;
  }

  const { auditHeadWith, formatHead, parseHead, verifyAuditChainWith } =
    await import("../../lib/server/audit/verify.ts");
  let anchor = null;
  try {
    anchor = options.head ? parseHead(options.head) : null;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const { database } = await import("../../lib/server/db.ts");
  const db = await database();
  try {
    if (sub === "head") {
      const head = await auditHeadWith(db.prisma);
      if (options.json) process.stdout.write(JSON.stringify({ head }, null, 2) + "\n");
      else process.stdout.write(head ? `${formatHead(head)}\n` : "The audit trail is empty.\n");
      return 0;
    }
    const result = await verifyAuditChainWith(db.prisma, anchor);
    if (options.json) process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    else if (result.intact) {
      process.stdout.write(
        `Audit chain intact: ${result.checked} events checked${anchor ? `, including the head ${formatHead(anchor)}` : ""}; ` +
          `${result.records.signatures} signatures and ${result.records.revisions} pack revisions match their events; head ${result.head ? formatHead(result.head) : "none (empty)"}\n`,
      );
    } else {
      const b = result.firstBroken!;
      const where = b.reason.startsWith("record-") ? `record ${b.id}` : `event ${b.id}`;
      process.stdout.write(
        `Audit chain BROKEN at ${where} (${b.reason}): ${b.message}\n  expected ${b.expected}\n  found    ${b.found}\n`,
      );
      for (const p of result.recordProblems.slice(1)) process.stdout.write(`  also: ${p.message}\n`);
      process.stdout.write(`${result.checked} events checked.\n`);
    }
    return result.intact ? 0 : 1;
  } finally {
    await db.close();
  }
}
