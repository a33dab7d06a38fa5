/// <reference lib="dom" />
// Signing up, in and out, and the signed-in user's own profile and password.
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { api } from '../api.ts';
import { Field, Form, useForm } from '../form.tsx';
import { useLoad } from '../load.tsx';
import { Loading, ProblemMessage, useSubmit } from '../parts.tsx';
import { useSession } from '../session.tsx';

export function SignInPage() {
  const { refresh } = useSession();
  const [, navigate] = useLocation();
  const form = useForm({ email: '', password: '' }, async (values) => {
    await api.auth.signIn(values);
    await refresh();
    navigate('/');
  });
  return (
    <section aria-labelledby="sign-in-title" class="narrow">
      <h1 id="sign-in-title">Sign in</h1>
      <Form form={form} submit="Sign in" sending="Signing in…">
        <Field label="Email" type="email" autocomplete="username" required {...form.field('email')} />
        <Field label="Password" type="password" autocomplete="current-password" required {...form.field('password')} />
      </Form>
      <Providers />
      <p>
        No account yet? <Link href="/sign-up">Sign up</Link>
      </p>
    </section>
  );
}

/** The identity providers configured; none when the server does not say. */
function useProviderNames(): string[] {
  return useLoad(() => api.auth.providers(), []).value?.map((provider) => provider.name) ?? [];
}

/** A link per configured identity provider: the browser goes there and comes back signed in. */
function Providers() {
  const names = useProviderNames();
  if (names.length === 0) return null;
  return (
    <nav aria-label="Sign in with a provider" class="providers">
      {names.map((name) => (
        <a key={name} class="button secondary" href={api.auth.providerSignInUrl(name, '/')}>
          Sign in with {name}
        </a>
      ))}
    </nav>
  );
}

/** Linking goes through the provider: the API says where, and the whole page goes there and back. */
function LinkProviders({ linked }: { linked: string[] }) {
  const names = useProviderNames().filter((name) => !linked.includes(name));
  const link = useSubmit(async (name: string) => window.location.assign(await api.auth.linkProviderLocation(name, '/#/account')));
  return (
    <>
      {names.map((name) => (
        <button key={name} type="button" class="secondary" disabled={link.busy} onClick={(event) => void link.submit(event, name)}>
          Link {name}
        </button>
      ))}
      <ProblemMessage problem={link.problem} />
    </>
  );
}

export function SignUpPage() {
  const { refresh } = useSession();
  const [, navigate] = useLocation();
  const form = useForm({ name: '', email: '', password: '' }, async (values) => {
    // The answer signs the new user in.
    await api.users.signUp(values, { idempotencyKey: crypto.randomUUID() });
    await refresh();
    navigate('/');
  });
  return (
    <section aria-labelledby="sign-up-title" class="narrow">
      <h1 id="sign-up-title">Create an account</h1>
      <Form form={form} submit="Create account" sending="Creating…">
        <Field label="Name" autocomplete="name" required {...form.field('name')} />
        <Field label="Email" type="email" autocomplete="email" required {...form.field('email')} />
        <Field label="Password (at least 8 characters)" type="password" autocomplete="new-password" required {...form.field('password')} />
      </Form>
      <p>
        Have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}

export function AccountPage() {
  const { session, refresh } = useSession();
  if (session === undefined) return <Loading />;
  if (session === null || !session.user)
    return (
      <p>
        <Link href="/sign-in">Sign in</Link> to see your account.
      </p>
    );
  return (
    // Keyed by the user alone: a saved profile's new version must not remount the form that says "Saved.".
    <Profile
      key={session.user.userId}
      user={session.user}
      onChange={refresh}
      providers={session.signInMethods.providers}
      hasPassword={session.signInMethods.password}
    />
  );
}

function Profile(props: {
  /** A signed-in user is active, so both are set; the API types them nullable for deleted users. */
  user: { userId: string; name: string | null; email: string | null; version: number };
  providers: string[];
  /** Without one yet, a password is set without the current one. */
  hasPassword: boolean;
  onChange: () => Promise<void>;
}) {
  const [, navigate] = useLocation();
  const profile = useForm({ name: props.user.name ?? '', email: props.user.email ?? '' }, async ({ name, email }) => {
    const changes = { ...(name !== props.user.name ? { name } : {}), ...(email !== props.user.email ? { email } : {}) };
    if (Object.keys(changes).length === 0) return;
    await api.users.change(props.user.userId, changes, { ifMatch: props.user.version });
    await props.onChange();
  });
  const passwordForm = useForm({ currentPassword: '', password: '' }, async ({ currentPassword, password }) => {
    // Every other session of the user ends; this one goes on.
    await api.auth.setPassword(props.hasPassword ? { currentPassword, password } : { password });
    await props.onChange();
    passwordForm.reset();
  });
  const unlink = useSubmit(async (provider: string) => {
    await api.auth.unlinkProvider(provider);
    await props.onChange();
  });
  const signOut = useSubmit(async () => {
    await api.auth.signOut();
    await props.onChange();
    navigate('/');
  });
  return (
    <section aria-labelledby="account-title" class="narrow">
      <h1 id="account-title">Your account</h1>
      <Form form={profile} labelledBy="profile-title" submit="Save profile" sending="Saving…" sent="Saved.">
        <h2 id="profile-title">Profile</h2>
        <Field label="Name" autocomplete="name" required {...profile.field('name')} />
        <Field label="Email" type="email" autocomplete="email" required {...profile.field('email')} />
      </Form>
      <Form form={passwordForm} labelledBy="password-title" submit="Change password" sending="Changing…" sent="Password changed.">
        <h2 id="password-title">Password</h2>
        {props.hasPassword && (
          <Field label="Current password" type="password" autocomplete="current-password" {...passwordForm.field('currentPassword')} />
        )}
        <Field label="New password" type="password" autocomplete="new-password" required {...passwordForm.field('password')} />
      </Form>
      <h2>Sign-in methods</h2>
      {props.providers.length === 0 ? (
        <p>No provider is linked.</p>
      ) : (
        <ul class="linked">
          {props.providers.map((provider) => (
            <li key={provider}>
              {provider}{' '}
              <button type="button" class="secondary" disabled={unlink.busy} onClick={(event) => void unlink.submit(event, provider)}>
                Unlink
              </button>
            </li>
          ))}
        </ul>
      )}
      <ProblemMessage problem={unlink.problem} />
      <LinkProviders linked={props.providers} />
      <form onSubmit={signOut.submit}>
        <ProblemMessage problem={signOut.problem} />
        <button type="submit" class="secondary" disabled={signOut.busy}>
          Sign out
        </button>
      </form>
      <YourData userId={props.user.userId} onDeleted={props.onChange} />
    </section>
  );
}

/** The person's own data: a copy of all of it, and deleting the account, which forgets them. */
function YourData({ userId, onDeleted }: { userId: string; onDeleted: () => Promise<void> }) {
  const [, navigate] = useLocation();
  const [understood, setUnderstood] = useState(false);
  const remove = useSubmit(async () => {
    await api.users.delete(userId);
    await onDeleted();
    navigate('/');
  });
  return (
    <>
      <h2 id="data-title">Your data</h2>
      <p>Everything we hold about you (profile, sign-in methods, orders, documents) as one JSON file.</p>
      <p>
        <a class="button secondary" href={api.users.exportUrl(userId)} download={`personal-data-${userId}.json`}>
          Download your data
        </a>
      </p>
      <form onSubmit={remove.submit} aria-busy={remove.busy} aria-labelledby="delete-title" class="danger-zone">
        <h2 id="delete-title">Delete account</h2>
        <p>
          Your name and email are destroyed for good, everywhere we keep them, and you are signed out. Your orders and the documents you own
          stay, without your name. This cannot be undone.
        </p>
        <label class="check">
          <input type="checkbox" name="understood" required checked={understood} onChange={(e) => setUnderstood(e.currentTarget.checked)} />
          I understand that this cannot be undone
        </label>
        <ProblemMessage problem={remove.problem} />
        <button type="submit" class="danger" disabled={remove.busy || !understood}>
          {remove.busy ? 'Deleting…' : 'Delete my account'}
        </button>
      </form>
    </>
  );
}
