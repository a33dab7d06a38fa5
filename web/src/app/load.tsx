/// <reference lib="dom" />
// What a page shows from the API: loaded when the page opens and again when what it depends on
// changes, the refusal if there was one, and what to show meanwhile.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { asProblem } from './api.ts';
import { Loading, ProblemMessage } from './parts.tsx';

export interface Loaded<T> {
  value: T | undefined;
  problem: ApiProblem | undefined;
  /** Asks again: the newest answer is shown, whatever order the answers come back in. */
  reload(): void;
  /** Changes what is shown (a live change, the answer of a write). */
  set(next: T | ((shown: T | undefined) => T | undefined)): void;
}

/** `load` gives undefined when there is nothing to ask yet (nobody signed in). */
export function useLoad<T>(load: () => Promise<T> | undefined, dependencies: readonly unknown[]): Loaded<T> {
  const [value, setValue] = useState<T>();
  const [problem, setProblem] = useState<ApiProblem>();
  // A page of users asked for before the next one may answer after it: only the last one asked is shown.
  const asked = useRef(0);
  const reload = () => {
    const pending = load();
    if (!pending) return;
    const ask = ++asked.current;
    pending.then(
      (answer) => {
        if (ask !== asked.current) return;
        setValue(() => answer);
        setProblem(undefined);
      },
      (error) => ask === asked.current && setProblem(asProblem(error)),
    );
  };
  useEffect(reload, dependencies);
  return { value, problem, reload, set: setValue as Loaded<T>['set'] };
}

/** The refusal, or `loading` until the value is there, then the value as `children` shows it. */
export function Shown<T>({ loaded, loading, children }: { loaded: Loaded<T>; loading: string; children: (value: T) => ComponentChildren }) {
  return (
    <>
      <ProblemMessage problem={loaded.problem} />
      {loaded.value === undefined ? !loaded.problem && <Loading>{loading}</Loading> : children(loaded.value)}
    </>
  );
}

/** What a page shows before its value is there: the refusal, or `loading`. */
export function Pending({ loaded, loading }: { loaded: Pick<Loaded<unknown>, 'problem'>; loading: string }) {
  return loaded.problem ? <ProblemMessage problem={loaded.problem} /> : <Loading>{loading}</Loading>;
}
