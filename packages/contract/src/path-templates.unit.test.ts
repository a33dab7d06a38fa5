// Which template a path belongs to when several match it: the literal segment wins, at the first
// segment where the templates differ. The mount and the front door both route by this.
import { describe, expect, it } from 'vitest';
import { allowOf, bySpecificity, overlap, templateMatcher } from './path-templates.ts';
import { API_ROUTES } from './routes.ts';

describe('path templates', () => {
  it('put a literal segment before a parameter at the first place they differ', () => {
    expect(bySpecificity('/auth/sign-in', '/auth/{provider}')).toBeLessThan(0);
    expect(bySpecificity('/auth/identities/{provider}', '/auth/{provider}/link')).toBeLessThan(0);
    expect(bySpecificity('/users/{id}', '/users/{id}')).toBe(0);
  });

  it('tell which templates can share a path', () => {
    expect(overlap('/auth/sign-in', '/auth/{provider}')).toBe(true);
    expect(overlap('/auth/identities/{provider}', '/auth/{provider}/link')).toBe(true);
    expect(overlap('/users/{id}', '/users/{id}/export')).toBe(false);
    expect(overlap('/users/{id}', '/orders/{id}')).toBe(false);
  });

  it('find the one template of the table a path belongs to, whatever the order given, and regardless of case', () => {
    const templates = API_ROUTES.map((route) => route.path);
    for (const order of [templates, [...templates].reverse()]) {
      const templateOf = templateMatcher(order);
      expect(templateOf('/auth/sign-in')).toBe('/auth/sign-in');
      expect(templateOf('/auth/acme')).toBe('/auth/{provider}');
      expect(templateOf('/auth/identities/link')).toBe('/auth/identities/{provider}');
      expect(templateOf('/auth/acme/link')).toBe('/auth/{provider}/link');
      expect(templateOf('/v1/Users/42')).toBe('/v1/users/{id}');
      expect(templateOf('/nowhere')).toBeUndefined();
    }
  });

  it('list HEAD with every GET, as Allow does', () => {
    expect(allowOf(['get', 'post'])).toBe('HEAD, GET, POST');
    expect(allowOf(['delete'])).toBe('DELETE');
  });
});
