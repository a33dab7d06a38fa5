// POST /users loaded by autocannon, each request with an email no other of the run has used: the
// growth section's sign-ups, set against themselves at each store size. The section against the
// floors loads with wrk instead (http.ts, sign-ups.lua).
import autocannon from 'autocannon';

/** Numbers the sign-ups of the whole run, so that no two loads (of one store) send the same email. */
let signUpCount = 0;

export function loadSignUps(url: string, seconds: number, connections: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}/users`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ name: 'Bench', email: `bench-${process.pid}-${signUpCount++}@example.com` }),
        }),
      },
    ],
  });
}
