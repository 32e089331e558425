export type { ToolDefinition, ToolInvoker } from './tool.js';
export { listTool, renameProperties, Toolset, type ListedTool } from './tool-listing.js';
export { callTool, errorResult, errorText, parametersFromArguments, successResult } from './tool-call.js';
export { createToolServer, SERVER_INFO, SERVER_INSTRUCTIONS } from './tool-server.js';
export { handleStatelessRequest, type StatelessRequest } from './streamable-http.js';
export { jsonRpcError, JsonRpcErrorCode, messageId, type JsonRpcId } from './json-rpc.js';
