import { apiRoute } from "@/lib/server/route";
import { getAuditorBundle } from "@/lib/server/signoff/auditor-bundle";

type Params = { id: string };

/** The auditor's bundle (revisions, signatures, audit events and chain links), checked offline by scripts/verify-pack.ts. */
export const GET = apiRoute<Params>("audit.read", async ({ actor, params, request }) => {
  const bundle = await getAuditorBundle(actor, params.id, request);
  return new Response(
    JSON.stringify(bundle, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2),
    {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="verdict-audit-${params.id}.json"`,
      },
    },
  );
});
