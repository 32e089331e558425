/** `node packages/server/dist/main.js`: serve DATA_DIR on HOST:PORT until SIGINT or SIGTERM. */
import { readConfig } from './config.js';
import { closeOnSignals, logListening, startServer } from './server.js';

const config = readConfig();
const server = await startServer(config);
logListening(server, config);
closeOnSignals(server);
