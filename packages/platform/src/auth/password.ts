// Password hashing with scrypt at OWASP's parameters (N=2^17, r=8, p=1), stored as a PHC-style
// string that names its parameters, so that a hash made under older parameters is recognised at
// sign-in and replaced. scrypt runs on libuv's thread pool: it does not block the event loop.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { PASSWORD_MAX } from '@eventide/contract/resources/auth/password.ts';
import { characters } from '@eventide/kernel/characters.ts';

export interface ScryptParameters {
  /** log2 of the CPU/memory cost N. */
  logN: number;
  r: number;
  p: number;
}

export const CURRENT: ScryptParameters = { logN: 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function scrypt(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** params.logN, r: params.r, p: params.p, maxmem: 256 * 2 ** params.logN * params.r };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string, params: ScryptParameters = CURRENT): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, params);
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const ENCODED = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

export interface Verification {
  ok: boolean;
  /** The hash was made under other parameters than CURRENT: store a new one. */
  needsRehash: boolean;
}

export async function verifyPassword(password: string, encoded: string, current: ScryptParameters = CURRENT): Promise<Verification> {
  const match = ENCODED.exec(encoded);
  if (!match || characters(password) > PASSWORD_MAX) return { ok: false, needsRehash: false };
  const params = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  const expected = Buffer.from(match[5]!, 'base64url');
  const key = await scrypt(password, Buffer.from(match[4]!, 'base64url'), params);
  const ok = key.length === expected.length && timingSafeEqual(key, expected);
  const needsRehash = params.logN !== current.logN || params.r !== current.r || params.p !== current.p;
  return { ok, needsRehash: ok && needsRehash };
}
