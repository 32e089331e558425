export { startServer, type RunningServer } from './server.js';
export { readConfig, type ServerConfig } from './config.js';
export { executeCapability, type Capability } from './capability.js';
export { searchCapability } from './handlers/search.js';
export { documentCapability } from './handlers/document.js';
export { CATALOG, type CatalogEntry } from './catalog.js';
export { openServices, closeServices } from './server.js';
export type { Services } from './services.js';
export { catalogToolInvoker, toolsetFor, TOOL_PROFILES, PROFILE_NAMES } from './discovery/tools.js';
