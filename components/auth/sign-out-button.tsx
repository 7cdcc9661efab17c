export function SignOutButton({ action }: { action: () => Promise<void> }) {
  return (
    <form action={action}>
      <button type="submit" className="secondary">
        Sign out
      </button>
    </form>
  );
}
