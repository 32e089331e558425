/**
 * JSON-RPC 2.0 error responses written outside the SDK (a batch's refusals, bad params, bodies
 * refused before the SDK sees them), with the SDK's error codes.
 */
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

export { ProtocolErrorCode as JsonRpcErrorCode };

export type JsonRpcId = string | number | null;

/** A JSON-RPC error response; `data` only when given. */
export function jsonRpcError(id: JsonRpcId, code: number, message: string, data?: unknown) {
  return { jsonrpc: '2.0' as const, id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * The id a response to `message` carries: undefined for a notification (no id: nothing is
 * answered), null when the id is not a string or number.
 */
export function messageId(message: unknown): JsonRpcId | undefined {
  if (typeof message !== 'object' || message === null || !('id' in message)) return undefined;
  const id = (message as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' || id === null ? id : null;
}
