// Where the system may send requests of its own (webhooks: docs/webhooks.md), so that a URL an
// admin gives cannot reach what only the network's insiders should (SSRF): public addresses
// only, unless the operator allows a range (WEBHOOK_ALLOWED_RANGES), and plain http:// only to an
// allowed range. The address is checked where the connection is made, on what the name resolves
// to then (pinnedLookup), so a name that resolves to a public address at registration and to a
// private one at delivery is refused at delivery.
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** The ranges that are not the public internet, with what each is, for the refusal's words. */
const NOT_PUBLIC: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', '"this network"'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved'],
  ['192.0.2.0', 24, 'ipv4', 'documentation'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['198.51.100.0', 24, 'ipv4', 'documentation'],
  ['203.0.113.0', 24, 'ipv4', 'documentation'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['64:ff9b::', 96, 'ipv6', 'NAT64'],
  ['100::', 64, 'ipv6', 'discard'],
  ['2001:db8::', 32, 'ipv6', 'documentation'],
  ['fc00::', 7, 'ipv6', 'unique local (private)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const ranges = NOT_PUBLIC.map(([network, prefix, type, what]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return { list, type, what };
});

export interface DestinationPolicy {
  /** The operator's ranges (WEBHOOK_ALLOWED_RANGES) that may be reached although not public. */
  allowed: readonly string[];
}

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is checked as the IPv4 address it is. */
function normalized(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, type: 'ipv4' };
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

function allowedList(policy: DestinationPolicy): BlockList {
  const list = new BlockList();
  for (const range of policy.allowed) {
    const [network, prefix] = range.split('/') as [string, string];
    list.addSubnet(network, Number(prefix), isIP(network) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** What kind of address it is when it is not public (`loopback`, …); undefined for a public one. */
export function notPublic(address: string): string | undefined {
  const { address: plain, type } = normalized(address);
  return ranges.find((range) => range.type === type && range.list.check(plain, type))?.what;
}

/** Why the address may not be reached under the policy, or undefined when it may (and whether it is allowed, not public). */
export function refusalOf(address: string, policy: DestinationPolicy): { refused?: string; insider: boolean } {
  const what = notPublic(address);
  if (what === undefined) return { insider: false };
  const { address: plain, type } = normalized(address);
  if (allowedList(policy).check(plain, type)) return { insider: true };
  return {
    refused: `${address} is a ${what} address, and only public addresses are reached (WEBHOOK_ALLOWED_RANGES allows others)`,
    insider: true,
  };
}

export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

/** What a URL must be before anything is resolved: http(s), a host, no credentials in it. */
export function checkUrlShape(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DestinationRefused('is not a URL: give an absolute https:// URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new DestinationRefused('must be an https:// URL');
  if (url.username || url.password)
    throw new DestinationRefused('must not carry a user name or password: the deliveries are signed instead');
  if (url.hash) throw new DestinationRefused('must not have a fragment (#…)');
  return url;
}

/** Every address the name resolves to now (the name itself when it is an address). */
function resolve(hostname: string): Promise<LookupAddress[]> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return Promise.resolve([{ address: bare, family: isIP(bare) }]);
  return new Promise((done, fail) =>
    dnsLookup(bare, { all: true }, (error, addresses) =>
      error ? fail(new DestinationRefused(`${bare} does not resolve: ${error.code ?? error.message}`)) : done(addresses),
    ),
  );
}

/** Refuses the address list when any of them may not be reached, or when plain http goes to the public internet. */
function vet(addresses: readonly LookupAddress[], url: URL, policy: DestinationPolicy): void {
  let insider = true;
  for (const { address } of addresses) {
    const verdict = refusalOf(address, policy);
    if (verdict.refused) throw new DestinationRefused(verdict.refused);
    insider &&= verdict.insider;
  }
  if (url.protocol === 'http:' && !insider) {
    throw new DestinationRefused('must be an https:// URL: plain http:// is allowed only to the ranges WEBHOOK_ALLOWED_RANGES names');
  }
}

/** Checks a URL as a delivery would reach it now: its shape, and every address its host resolves to. */
export async function checkDestination(text: string, policy: DestinationPolicy): Promise<URL> {
  const url = checkUrlShape(text);
  vet(await resolve(url.hostname), url, policy);
  return url;
}

/**
 * What a delivery checks before it connects: the URL's shape, and the address when the URL names
 * one (Node does not look an address up). A name is resolved and checked once, where the
 * connection is made (pinnedLookup).
 */
export function checkBeforeConnecting(text: string, policy: DestinationPolicy): URL {
  const url = checkUrlShape(text);
  const bare = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) vet([{ address: bare, family: isIP(bare) }], url, policy);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves the name, refuses it unless every address may be
 * reached, and hands the connection the addresses it checked: what is checked is what is reached.
 * An address written in the URL is checked before the request (checkBeforeConnecting), as Node does
 * not look it up.
 */
export function pinnedLookup(url: URL, policy: DestinationPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        try {
          vet(addresses, url, policy);
        } catch (error) {
          callback(error as NodeJS.ErrnoException, '');
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
