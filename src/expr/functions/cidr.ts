/**
 * `cidr(ip, v4bits, v6bits)` and `cidr6(ip, v6bits)`: the network address of the client's subnet
 * (host bits cleared), e.g. for rate limiting per /24. `cidr6` leaves IPv4 addresses unchanged.
 */
import { networkAddress, type IpValue } from '../ip.js';
import type { Value } from '../context.js';

type Args = readonly (Value | undefined)[];

/** `cidr`. */
export function cidr(args: Args): Value | undefined {
  const ip = args[0] as IpValue | undefined;
  const v4 = args[1] as number;
  const v6 = args[2] as number;
  if (ip === undefined) return undefined;
  return networkAddress(ip, typeof ip === 'number' ? v4 : v6);
}

/** `cidr6`. */
export function cidr6(args: Args): Value | undefined {
  const ip = args[0] as IpValue | undefined;
  const v6 = args[1] as number;
  if (ip === undefined) return undefined;
  return typeof ip === 'number' ? ip : networkAddress(ip, v6);
}
