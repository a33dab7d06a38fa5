// The address a limit counts an anonymous client by. One IPv6 subscriber is usually given a whole
// /64, so counting single IPv6 addresses would let one client spread its requests over 2^64
// "clients"; an IPv4 address inside IPv6 (::ffff:a.b.c.d) is the IPv4 client it came from.
import ipaddr from 'ipaddr.js';

export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
