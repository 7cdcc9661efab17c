import type { CSSProperties } from "react";
import type { ActionState } from "@/lib/action-state";
import { CommentForm } from "./comment-form";
import { formatUtc } from "@/lib/format";
import type { CommentView } from "./types";

const SECTIONS: Array<{ stage: number | null; title: string }> = [
  { stage: null, title: "The pack as a whole" },
  { stage: 1, title: "Stage 1 — Leaderboard score" },
  { stage: 2, title: "Stage 2 — Preference / Elo ranking" },
  { stage: 3, title: "Stage 3 — Task-specific accuracy" },
  { stage: 4, title: "Stage 4 — Class-balance stress test" },
  { stage: 5, title: "Stage 5 — Operational benchmark" },
];

type Action = (state: ActionState, data: FormData) => Promise<ActionState>;

/** What every thread of the section needs: the replies by parent, and how to write one. */
interface ThreadContext {
  replies: Map<string, CommentView[]>;
  action: Action;
  decisionId: string;
  canComment: boolean;
}

/** A list of threads: a section's first comments, or a comment's replies (indented). */
function Threads({
  comments,
  style,
  context,
}: {
  comments: CommentView[];
  style: CSSProperties;
  context: ThreadContext;
}) {
  return (
    <ul style={style}>
      {comments.map((c) => (
        <Thread key={c.id} comment={c} context={context} />
      ))}
    </ul>
  );
}

function Thread({ comment, context }: { comment: CommentView; context: ThreadContext }) {
  const { replies, action, decisionId, canComment } = context;
  const children = replies.get(comment.id) ?? [];
  return (
    <li>
      <p style={{ margin: "4px 0" }}>
        <strong>{comment.author.name}</strong>{" "}
        <span className="muted">
          {formatUtc(comment.createdAt, "second")} ·{" "}
          {comment.packRevision ? `on revision ${comment.packRevision.number}` : "before the first revision"}
        </span>
      </p>
      <p style={{ margin: "4px 0", whiteSpace: "pre-wrap" }}>{comment.body}</p>
      {children.length > 0 && (
        <Threads
          comments={children}
          style={{ borderLeft: "2px solid var(--line)", paddingLeft: 16, listStyle: "none" }}
          context={context}
        />
      )}
      {canComment && comment.parentId === null && (
        <details>
          <summary>Reply</summary>
          <CommentForm
            action={action}
            decisionId={decisionId}
            stage={comment.stage}
            parentId={comment.id}
            label={`Reply to ${comment.author.name}`}
          />
        </details>
      )}
    </li>
  );
}

/** Comments per stage and on the pack, threaded; each says which revision it was written on. */
export function CommentThreads({
  comments,
  action,
  decisionId,
  canComment,
}: {
  comments: CommentView[];
  action: Action;
  decisionId: string;
  canComment: boolean;
}) {
  const replies = new Map<string, CommentView[]>();
  for (const c of comments) if (c.parentId) replies.set(c.parentId, [...(replies.get(c.parentId) ?? []), c]);
  return (
    <>
      {SECTIONS.map((section) => {
        const roots = comments.filter((c) => c.parentId === null && c.stage === section.stage);
        return (
          <section key={section.stage ?? "pack"} className="card" aria-label={`Comments: ${section.title}`}>
            <h3 style={{ marginTop: 0 }}>{section.title}</h3>
            {roots.length === 0 ? (
              <p className="muted">No comments.</p>
            ) : (
              <Threads
                comments={roots}
                style={{ listStyle: "none", paddingLeft: 0 }}
                context={{ replies, action, decisionId, canComment }}
              />
            )}
            {canComment && (
              <CommentForm
                action={action}
                decisionId={decisionId}
                stage={section.stage}
                label={`Comment on ${section.title.toLowerCase()}`}
              />
            )}
          </section>
        );
      })}
    </>
  );
}
