/** `node packages/server/dist/main.js`: serve DATA_DIR on HOST:PORT until SIGINT or SIGTERM. */
import { readConfig } from './config.js';
import { logListening, startServer } from './server.js';

const config = readConfig();
const server = await startServer(config);
logListening(server, config);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close().then(() => process.exit(0), () => process.exit(1));
  });
}
