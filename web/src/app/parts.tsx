/// <reference lib="dom" />
// Small pieces every page uses: a refusal shown as words, a button's or form's sending state, and
// a loading line screen readers announce. Forms are form.tsx, tables table.tsx, loading load.tsx.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { asProblem } from './api.ts';

/** A refusal as a person reads it: what happened and what to do, never raw JSON. */
export function ProblemMessage({ problem, fields = [] }: { problem: ApiProblem | undefined; fields?: string[] }) {
  if (!problem) return null;
  // Field errors shown beside their own fields are not repeated here; a stale If-Match is
  // said in the headline.
  const others = problem.errors.filter((e) => !fields.includes(e.field) && e.field !== 'If-Match');
  // Malformed (400) or refused for what a field holds (422): the errors are the message, beside
  // their fields or listed here, and the detail (the same errors in one line) is not said again.
  const byField = problem.errors.length > 0 && (problem.status === 400 || problem.status === 422);
  const title = byField ? (others.length === 0 ? 'Please check the marked fields.' : 'Please check the following.') : headline(problem);
  const detailSaid = title === said(problem.detail);
  return (
    <div class="problem" role="alert">
      <strong>{title}</strong>
      {others.length > 0 ? (
        <ul>
          {others.map((e) => (
            <li key={e.field}>
              {e.field}: {e.message}
            </li>
          ))}
        </ul>
      ) : (
        problem.errors.length === 0 && problem.status !== 412 && !detailSaid && <p>{sentence(problem.detail)}</p>
      )}
    </div>
  );
}

/** The server's details start in lower case, to read inside a sentence; shown alone, they start with a capital. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** A detail as a headline: a sentence of its own, with its full stop. */
const said = (detail: string) => sentence(detail).replace(/\.?$/, '.');

function headline(problem: ApiProblem): string {
  switch (problem.status) {
    case 0:
      return said(problem.title);
    case 401:
      // Why there is no session says what to do: sign in first, a wrong password, a provider that refused.
      return said(problem.detail);
    case 403:
      return 'You may not do that.';
    case 404:
      return 'Not found.';
    case 409:
    case 422:
      return said(problem.detail);
    case 412:
      return 'Someone changed this since you opened it. Reload to see their change, then try again.';
    case 429:
      return `Too many requests. Try again in ${Math.ceil((problem.retryAfterMs ?? 1000) / 1000)} s.`;
    default:
      return problem.status >= 500 ? 'Something went wrong on our side. Please try again.' : problem.title;
  }
}

/**
 * A page whose script is a chunk of its own, fetched the first time it is shown (the editor, the
 * operator's console): most visitors never load it.
 */
export function Lazy<M>({ load, what, children }: { load: () => Promise<M>; what: string; children: (module: M) => ComponentChildren }) {
  const [module, setModule] = useState<M>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    load().then(setModule, () => setFailed(true));
  }, []);
  if (failed) {
    return (
      <p class="problem" role="alert">
        The {what} could not be loaded (the site may have been updated meanwhile). Reload the page to try again.
      </p>
    );
  }
  return module ? children(module) : <Loading>Loading the {what}…</Loading>;
}

export function Loading({ children = 'Loading…' }: { children?: ComponentChildren }) {
  return (
    <p class="loading" role="status">
      {children}
    </p>
  );
}

/** A form's sending state: busy while the request is out, the refusal if there was one. */
export function useSubmit<Args extends unknown[] = []>(action: (...args: Args) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem>();
  const [done, setDone] = useState(false);
  /** `event` is the form's or button's, when there is one: its default is prevented. */
  const submit = async (event: Event | undefined, ...args: Args) => {
    event?.preventDefault();
    setBusy(true);
    setProblem(undefined);
    setDone(false);
    try {
      await action(...args);
      setDone(true);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, done, submit };
}

/** What a page for signed-in people shows to someone who is not. */
export function SignInFirst({ what }: { what: string }) {
  return (
    <p>
      <Link href="/sign-in">Sign in</Link> to see {what}.
    </p>
  );
}
