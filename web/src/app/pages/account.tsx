/// <reference lib="dom" />
// Signing up, in and out, and the signed-in user's own profile and password.
import { useEffect, useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { api } from '../api.ts';
import { Field, Loading, ProblemMessage, useSubmit } from '../parts.tsx';
import { useSession } from '../session.tsx';

export function SignInPage() {
  const { refresh } = useSession();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSubmit(async () => {
    await api.auth.signIn({ email, password });
    await refresh();
    navigate('/');
  });
  return (
    <section aria-labelledby="sign-in-title" class="narrow">
      <h1 id="sign-in-title">Sign in</h1>
      <form onSubmit={form.submit} aria-busy={form.busy}>
        <Field
          label="Email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={setEmail}
          problem={form.problem}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={setPassword}
          problem={form.problem}
        />
        <ProblemMessage problem={form.problem} fields={['email', 'password']} />
        <button type="submit" disabled={form.busy}>
          {form.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <Providers />
      <p>
        No account yet? <Link href="/sign-up">Sign up</Link>
      </p>
    </section>
  );
}

/** A link per configured identity provider: the browser goes there and comes back signed in. */
function Providers() {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    api.auth.providers().then(
      (providers) => setNames(providers.map((p) => p.name)),
      () => setNames([]),
    );
  }, []);
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
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    api.auth.providers().then(
      (providers) => setNames(providers.map((p) => p.name).filter((name) => !linked.includes(name))),
      () => setNames([]),
    );
  }, [linked.join(',')]);
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
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSubmit(async () => {
    // The answer signs the new user in.
    await api.users.signUp({ name, email, password }, { idempotencyKey: crypto.randomUUID() });
    await refresh();
    navigate('/');
  });
  return (
    <section aria-labelledby="sign-up-title" class="narrow">
      <h1 id="sign-up-title">Create an account</h1>
      <form onSubmit={form.submit} aria-busy={form.busy}>
        <Field label="Name" name="name" autocomplete="name" required value={name} onInput={setName} problem={form.problem} />
        <Field
          label="Email"
          name="email"
          type="email"
          autocomplete="email"
          required
          value={email}
          onInput={setEmail}
          problem={form.problem}
        />
        <Field
          label="Password (at least 8 characters)"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          value={password}
          onInput={setPassword}
          problem={form.problem}
        />
        <ProblemMessage problem={form.problem} fields={['name', 'email', 'password']} />
        <button type="submit" disabled={form.busy}>
          {form.busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
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
    <Profile
      key={`${session.user.userId}:${session.user.version}`}
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
  const [name, setName] = useState(props.user.name ?? '');
  const [email, setEmail] = useState(props.user.email ?? '');
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const profile = useSubmit(async () => {
    const changes = { ...(name !== props.user.name ? { name } : {}), ...(email !== props.user.email ? { email } : {}) };
    if (Object.keys(changes).length === 0) return;
    await api.users.change(props.user.userId, changes, { ifMatch: props.user.version });
    await props.onChange();
  });
  const passwordForm = useSubmit(async () => {
    await api.auth.setPassword(props.hasPassword ? { currentPassword, password } : { password });
    await props.onChange();
    setCurrentPassword('');
    setPassword('');
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
      <form onSubmit={profile.submit} aria-busy={profile.busy} aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <Field label="Name" name="name" autocomplete="name" required value={name} onInput={setName} problem={profile.problem} />
        <Field
          label="Email"
          name="email"
          type="email"
          autocomplete="email"
          required
          value={email}
          onInput={setEmail}
          problem={profile.problem}
        />
        <ProblemMessage problem={profile.problem} fields={['name', 'email']} />
        {profile.done && !profile.problem && (
          <p role="status" class="ok">
            Saved.
          </p>
        )}
        <button type="submit" disabled={profile.busy}>
          {profile.busy ? 'Saving…' : 'Save profile'}
        </button>
      </form>
      <form onSubmit={passwordForm.submit} aria-busy={passwordForm.busy} aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        {props.hasPassword && (
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autocomplete="current-password"
            value={currentPassword}
            onInput={setCurrentPassword}
            problem={passwordForm.problem}
          />
        )}
        <Field
          label="New password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          value={password}
          onInput={setPassword}
          problem={passwordForm.problem}
        />
        <ProblemMessage problem={passwordForm.problem} fields={['currentPassword', 'password']} />
        {passwordForm.done && !passwordForm.problem && (
          <p role="status" class="ok">
            Password changed.
          </p>
        )}
        <button type="submit" disabled={passwordForm.busy}>
          Change password
        </button>
      </form>
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
