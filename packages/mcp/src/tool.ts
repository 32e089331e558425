/**
 * What the MCP adapter needs to know about a tool: its name and description, the zod schemas
 * of its parameters (under their REST names) and of its body, and the argument names MCP uses
 * in place of REST ones. The adapter knows nothing of the service behind the tool: it receives
 * an invoker that runs the capability exactly as the REST route does.
 */
import type { z } from 'zod';

export interface ToolDefinition {
  name: string;
  description: string;
  /** The capability's parameter schema, keyed by REST parameter names. */
  params: z.ZodObject;
  /** The body a successful call returns: the tool's outputSchema and `structuredContent`. */
  response: z.ZodType;
  /** MCP argument name -> REST parameter name (web_search takes `query` where REST takes `q`). */
  argumentAliases: Record<string, string>;
}

/**
 * Runs one tool with parameters already renamed to their REST names and returns the REST body.
 * Throws `ServiceError` for the failures REST answers with a status and a plain-text body.
 */
export type ToolInvoker = (tool: ToolDefinition, parameters: Record<string, unknown>) => Promise<unknown>;
