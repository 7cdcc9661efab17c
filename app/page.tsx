import { redirect } from "next/navigation";
import { homePathFor } from "@/lib/auth/home";
import { currentActor } from "@/lib/server/session";

/** `/` is each user's home: an admin's is user administration, everyone else's the decisions list. */
export default async function Home() {
  const actor = await currentActor();
  redirect(actor ? homePathFor(actor) : "/sign-in");
}
