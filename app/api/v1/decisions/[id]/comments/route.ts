import { commentSchema } from "@/lib/schemas/signoff";
import { createComment, listComments } from "@/lib/server/decisions/comments";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => ({
  comments: await listComments(actor, params.id),
}));

export const POST = apiRoute<Params>("comment.create", async ({ actor, params, req, request }) => {
  const body = await readJsonBody(req);
  const input = commentSchema.parse(body);
  const comment = await createComment(
    actor,
    params.id,
    { body: input.body, stage: input.stage, parentId: input.parentId },
    request,
  );
  return Response.json({ comment }, { status: 201 });
});
