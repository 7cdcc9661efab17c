import { decisionCreateSchema, decisionListFilterSchema } from "@/lib/schemas/decision";
import { createDecision, listDecisions } from "@/lib/server/decisions/decisions";
import { apiRoute, readJsonBody } from "@/lib/server/route";

/** ?status=ACTIVE (default: every decision not archived) | DRAFT | IN_REVIEW | … | ARCHIVED | ALL */
export const GET = apiRoute("decision.read", async ({ actor, req }) => ({
  decisions: await listDecisions(
    actor,
    decisionListFilterSchema.parse(req.nextUrl.searchParams.get("status")?.toUpperCase() ?? "ACTIVE"),
  ),
}));

/** A new decision: every task parameter of SPEC §2, or `copyFrom` a decision's parameters (analyst). */
export const POST = apiRoute("decision.edit", async ({ actor, req, request }) => {
  const decision = await createDecision(actor, decisionCreateSchema.parse(await readJsonBody(req)), request);
  return Response.json({ decision }, { status: 201 });
});
