/**
 * Who may read GET /metrics: loopback always, plus what `METRICS_ALLOW` names (a comma list of
 * addresses and CIDR blocks, or `any`). Anyone else gets 403: the route is documented, so
 * hiding it behind a 404 would only make a refused scrape harder to diagnose.
 */
import { BlockList, isIP } from 'node:net';

export class MetricsAccess {
  private readonly allowed = new BlockList();
  private readonly anyone: boolean;

  /** Throws on an entry that is neither an address, a CIDR block nor `any`. */
  constructor(entries: string[]) {
    this.allowed.addSubnet('127.0.0.0', 8, 'ipv4');
    this.allowed.addAddress('::1', 'ipv6');
    this.anyone = entries.includes('any');
    for (const entry of entries) {
      if (entry === 'any') continue;
      const [address, prefixText, extra] = entry.split('/');
      const family = isIP(address);
      const prefix = prefixText === undefined ? null : Number(prefixText);
      const maxPrefix = family === 4 ? 32 : 128;
      if (family === 0 || extra !== undefined || (prefix !== null && (!Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix))) {
        throw new Error(`invalid METRICS_ALLOW entry "${entry}": expected an IP address, a CIDR block (10.0.0.0/8) or any`);
      }
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === null) this.allowed.addAddress(address, type);
      else this.allowed.addSubnet(address, prefix, type);
    }
  }

  /** `METRICS_ALLOW` as written: empty means loopback only. */
  static parse(raw: string | undefined): string[] {
    return (raw ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
  }

  allows(remoteAddress: string): boolean {
    if (this.anyone) return true;
    // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d.
    const mapped = remoteAddress.startsWith('::ffff:') ? remoteAddress.slice(7) : remoteAddress;
    const family = isIP(mapped);
    if (family === 0) return false;
    return this.allowed.check(mapped, family === 4 ? 'ipv4' : 'ipv6');
  }
}
