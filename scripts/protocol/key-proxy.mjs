// A forwarding proxy for the MCP conformance suite, whose client sends no API key: every request
// to this port goes to TARGET with `x-api-key: KEY` added and everything else (method, path, Host,
// Origin, body) as it came, the answer back as it came. Prints its port on stdout.
//
//   node scripts/protocol/key-proxy.mjs http://127.0.0.1:8080 ess_...
import { createServer, request } from 'node:http';

const [target, key] = process.argv.slice(2);
const upstream = new URL(target);

const proxy = createServer((incoming, outgoing) => {
  const forwarded = request(
    { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, 'x-api-key': key }, setHost: false },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on('error', (error) => {
    outgoing.writeHead(502, { 'content-type': 'text/plain' });
    outgoing.end(`proxy: ${error.message}`);
  });
  incoming.pipe(forwarded);
});
proxy.listen(0, '127.0.0.1', () => console.log(proxy.address().port));
