/**
 * One tools/call: rename the MCP arguments to REST parameters, run the capability through the
 * invoker, and shape the REST outcome as a tool result. A success carries the REST body twice,
 * as `structuredContent` and as a JSON text block (for clients that read only text); a failure
 * is `isError` with the REST error body as its text.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ServiceError } from '@evidence/schemas';
import type { ToolDefinition, ToolInvoker } from './tool.js';

/**
 * MCP arguments -> REST parameters. An argument under its MCP name replaces the REST one, so
 * `{query: "x"}` reaches web_search as `q=x`. Arguments arrive typed (numbers, booleans, arrays),
 * which the parameter schemas accept next to the string forms REST sends.
 */
export function parametersFromArguments(tool: ToolDefinition, args: Record<string, unknown> | undefined): Record<string, unknown> {
  const parameters: Record<string, unknown> = { ...args };
  for (const [argument, parameter] of Object.entries(tool.argumentAliases)) {
    if (!(argument in parameters)) continue;
    parameters[parameter] = parameters[argument];
    delete parameters[argument];
  }
  return parameters;
}

export function successResult(body: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
  };
}

/**
 * The REST error body, except that a 400 naming an aliased parameter names the argument the
 * caller actually sent (`query`, not `q`).
 */
export function errorText(tool: ToolDefinition, error: ServiceError): string {
  if (error.kind !== 'bad_parameter') return error.message;
  for (const [argument, parameter] of Object.entries(tool.argumentAliases)) {
    const restPrefix = `invalid parameter ${parameter}:`;
    if (error.message.startsWith(restPrefix)) return `invalid parameter ${argument}:${error.message.slice(restPrefix.length)}`;
  }
  return error.message;
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export async function callTool(tool: ToolDefinition, args: Record<string, unknown> | undefined, invoke: ToolInvoker): Promise<CallToolResult> {
  let body: unknown;
  try {
    body = await invoke(tool, parametersFromArguments(tool, args));
  } catch (error) {
    if (error instanceof ServiceError) return errorResult(errorText(tool, error));
    // Same answer as REST's 500: the detail goes to the operator's log, not to the caller.
    console.error(`internal error in tool ${tool.name}:`, error);
    return errorResult('internal error');
  }
  return successResult(body);
}
