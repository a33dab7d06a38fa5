// The address a limit counts an anonymous client by. One IPv6 subscriber is usually given a whole
// /64, so counting single IPv6 addresses would let one client spread its requests over 2^64
// "clients"; an IPv4 address inside IPv6 (::ffff:a.b.c.d) is the IPv4 client it came from.
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';

const MAPPED_IPV4 = '::ffff:';

export function addressKey(ip: string): string {
  // What sockets give, answered without ipaddr.js, which parses the address twice (7 µs of every
  // limited request in a busy server): node's check takes only the canonical form, its own key.
  if (isIPv4(ip)) return ip;
  if (ip.startsWith(MAPPED_IPV4) && isIPv4(ip.slice(MAPPED_IPV4.length))) return ip.slice(MAPPED_IPV4.length);
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
