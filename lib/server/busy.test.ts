import { describe, expect, it } from "vitest";
import { db } from "./db";
import { AppError, BUSY_RETRY_AFTER_SECONDS, busyError } from "./errors";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A real P2028 from PostgreSQL through Prisma: a transaction that outlives the timeout it was given. */
async function expiredTransaction(): Promise<unknown> {
  const prisma = await db();
  return prisma
    .$transaction(
      async (tx) => {
        await sleep(400);
        return tx.user.count();
      },
      { timeout: 100 },
    )
    .then(
      () => null,
      (error: unknown) => error,
    );
}

describe("transactions under load", () => {
  it("makes a transaction that could not run in its bounds a 503 with Retry-After, not a 500", async () => {
    const error = await expiredTransaction();
    expect((error as { code?: string }).code).toBe("P2028");
    const busy = busyError(error);
    expect(busy).toBeInstanceOf(AppError);
    expect(busy!.status).toBe(503);
    // apiRoute's errorResponse sends this as the Retry-After header.
    expect(busy!.details).toEqual({ retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
    expect(busy!.message).toMatch(/too busy.*nothing was changed/);
  });

  it("leaves every other error as it is", async () => {
    expect(busyError(new Error("boom"))).toBeNull();
    expect(busyError(new AppError("CONFLICT", "no"))).toBeNull();
    expect(busyError(null)).toBeNull();
  });

  it("lets a transaction run past Prisma's 5 s default: every transaction gets TRANSACTION_OPTIONS", async () => {
    const prisma = await db();
    const count = await prisma.$transaction(async (tx) => {
      await sleep(5_500);
      return tx.user.count();
    });
    expect(typeof count).toBe("number");
  }, 15_000);
});
