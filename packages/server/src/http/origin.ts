/**
 * The MCP transport's Origin rule (Streamable HTTP, "Security warning"): a server reachable on
 * localhost validates `Origin` so that a web page a browser loaded from elsewhere cannot call it
 * through DNS rebinding. A request without `Origin` (every non-browser client) is served; one
 * whose Origin names the host the request was sent to (its `Host`), or one ALLOWED_ORIGINS
 * lists, is served; any other (another host, `null`, not a URL) is refused with 403.
 */

/**
 * ALLOWED_ORIGINS: a comma list of origins (`https://app.example:8443`, matched as a whole) and
 * hosts (`app.example`, `app.example:8443`: any scheme; without a port, any port).
 */
export function parseAllowedOrigins(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  for (const entry of entries) {
    if (entry.includes('://') && !URL.canParse(entry)) throw new Error(`invalid ALLOWED_ORIGINS: "${entry}" is not an origin (scheme://host[:port])`);
  }
  return entries.map((entry) => (entry.includes('://') ? new URL(entry).origin : entry));
}

/** Why a request's Origin is refused, or null when it may be served. */
export function originRefusal(origin: string | undefined, host: string | undefined, allowed: readonly string[]): string | null {
  if (origin === undefined) return null;
  const refusal = `forbidden: Origin ${JSON.stringify(origin.slice(0, 100))} is not this server's host nor one ALLOWED_ORIGINS lists`;
  if (!URL.canParse(origin)) return refusal;
  const url = new URL(origin);
  if (url.origin === 'null') return refusal;
  if (host !== undefined && url.host === host.trim().toLowerCase()) return null;
  for (const entry of allowed) {
    if (entry === url.origin || entry === url.host || entry === url.hostname) return null;
  }
  return refusal;
}
