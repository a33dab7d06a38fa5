// Which addresses a webhook may reach: public ones, and the operator's allowed ranges, never
// loopback, private or link-local ones by default, however they are written.
import { describe, expect, it } from 'vitest';
import { checkDestination, DestinationRefused, notPublic, refusalOf } from './destinations.ts';

const none = { allowed: [] };

describe('webhook destinations', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', '"this network"'],
    ['::1', 'loopback'],
    ['fd12::1', 'unique local (private)'],
    ['fe80::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s, a %s address, by default', (address, what) => {
    expect(notPublic(address)).toBe(what);
    expect(refusalOf(address, none).refused).toMatch(/only public addresses/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('reaches %s, a public address', (address) => {
    expect(refusalOf(address, none)).toEqual({ insider: false });
  });

  it('reaches an address of a range the operator allows', () => {
    expect(refusalOf('127.0.0.1', { allowed: ['127.0.0.0/8'] })).toEqual({ insider: true });
    expect(refusalOf('10.0.0.1', { allowed: ['127.0.0.0/8'] }).refused).toMatch(/private/);
  });

  it('checks what the host resolves to, and allows plain http only to an allowed range', async () => {
    await expect(checkDestination('https://127.0.0.1:8443/hook', none)).rejects.toThrow(/loopback/);
    await expect(checkDestination('https://localhost/hook', none)).rejects.toThrow(/loopback/);
    await expect(checkDestination('https://[::1]/hook', none)).rejects.toThrow(/loopback/);
    await expect(checkDestination('http://127.0.0.1/hook', { allowed: ['127.0.0.0/8'] })).resolves.toBeInstanceOf(URL);
    await expect(checkDestination('http://93.184.216.34/hook', none)).rejects.toThrow(/https/);
    await expect(checkDestination('ftp://example.com/', none)).rejects.toThrow(DestinationRefused);
    await expect(checkDestination('https://user:pw@example.com/', none)).rejects.toThrow(/password/);
  });
});
