// What each of auth/operations.ts's operations takes and answers.
import { z } from 'zod';
import type { PathParameter, Shape } from '../../shape.ts';
import { noContent, redirect } from '../../shape-parts.ts';
import type { AUTH_OPERATIONS } from './operations.ts';
import { passwordBody, providerLocationBody, providersBody, sessionBody, signInBody } from './schemas.ts';

const provider: PathParameter<string> = { schema: z.string().max(64), names: 'identity provider' };

export const AUTH_SHAPES = {
  signIn: { body: signInBody, answers: { 200: { description: 'signed in; the session cookie is set', body: sessionBody } } },
  signOut: { answers: { 204: noContent } },
  getSession: { answers: { 200: { description: 'the session', body: sessionBody } } },
  setPassword: { body: passwordBody, answers: { 204: noContent } },
  unlinkProvider: { params: { provider }, answers: { 204: noContent } },
  listProviders: { answers: { 200: { description: 'their names', body: providersBody } } },
  startProviderSignIn: {
    params: { provider },
    query: z.object({ returnTo: z.string().optional() }),
    answers: { 303: redirect("to the provider's sign-in page") },
  },
  linkProvider: {
    params: { provider },
    query: z.object({ returnTo: z.string().optional() }),
    answers: {
      200: { description: "asked for JSON: the provider's sign-in page, for the page to go to", body: providerLocationBody },
      303: redirect("to the provider's sign-in page"),
    },
  },
  providerCallback: {
    // Not strict: a provider may add parameters of its own (session_state, …).
    query: z.object({
      code: z.string().optional(),
      state: z.string().optional(),
      error: z.string().optional(),
      iss: z.string().optional(),
    }),
    answers: { 303: redirect('signed in (or linked): back to returnTo') },
  },
} as const satisfies { [K in keyof typeof AUTH_OPERATIONS]: Shape };
