/** Assemble the server: stores, shard pool, routes, listening socket; and take it down again. */
import uWS from 'uWebSockets.js';
import { ensureManifest } from '@evidence/native';
import { ShardPool } from '@evidence/pool';
import { openStores } from '@evidence/stores';
import type { ServerConfig } from './config.js';
import { registerRoutes } from './routes/index.js';
import type { Services } from './services.js';

export interface RunningServer {
  port: number;
  services: Services;
  close(): Promise<void>;
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const manifest = ensureManifest(config.dataDir, config.shards);
  const stores = await openStores({
    dataDir: config.dataDir,
    keyRefreshMs: config.keyRefreshMs,
    authFailLimit: config.authFailLimit,
    authFailWindowMs: config.authFailWindowMs,
  });
  const pool = new ShardPool({
    dataDir: config.dataDir,
    shards: manifest.shards,
    replicas: config.replicas,
    dimensions: manifest.dimensions,
    maxQueue: config.maxQueue,
  });
  const services: Services = { pool, stores, config };
  const app = uWS.App();
  registerRoutes(app, services);
  const listenSocket = await new Promise<uWS.us_listen_socket>((resolve, reject) => {
    app.listen(config.host, config.port, (socket) => {
      if (socket) resolve(socket);
      else reject(new Error(`cannot listen on ${config.host}:${config.port}`));
    });
  });
  const port = uWS.us_socket_local_port(listenSocket);
  return {
    port,
    services,
    async close() {
      uWS.us_listen_socket_close(listenSocket);
      await pool.close();
      await stores.close();
    },
  };
}
