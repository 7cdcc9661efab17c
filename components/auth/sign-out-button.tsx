import { signOutAction } from "@/app/sign-in/actions";

export function SignOutButton() {
  return (
    <form action={signOutAction}>
      <button type="submit" className="secondary">
        Sign out
      </button>
    </form>
  );
}
