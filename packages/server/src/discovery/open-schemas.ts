/**
 * zod schemas of the bodies outside the catalog that OpenAPI describes: /account, /readyz and
 * the MCP tool listing. AccountStatus is a TypeScript interface in the stores package; the
 * type assertions below fail the build if the two drift apart.
 */
import type { AccountStatus } from '@evidence/stores';
import { z } from 'zod';

export const AccountStatusSchema = z.object({
  tenant: z.string().describe('account the key belongs to'),
  plan: z.string().describe('plan name'),
  rate_per_min: z.number().int().describe('credits per minute; the window is shared by the whole serving fleet'),
  monthly_credits: z.number().int().describe('included credits per calendar month; 0 means unlimited'),
  credits_used_this_period: z.number().int().describe('credits billed since period_start_unix'),
  credits_remaining: z.number().int().nullable().describe('null when monthly_credits is unlimited'),
  period_start_unix: z.number().int().describe('first second of the current calendar month, unix seconds'),
  hard_cap: z.boolean().describe('whether the account stops (429) at monthly_credits instead of billing overage'),
  metered_billing: z.boolean().describe('whether a payment method is attached'),
  monthly_quota: z.number().int().describe('deprecated alias of monthly_credits'),
  usage_this_period: z.number().int().describe('deprecated alias of credits_used_this_period'),
  quota_remaining: z.number().int().nullable().describe('deprecated alias of credits_remaining'),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const accountSchemaMatchesStores: Same<z.infer<typeof AccountStatusSchema>, AccountStatus> = true;
void accountSchemaMatchesStores;

const ShardCommitSchema = z.object({
  shard: z.number().int(),
  committed_opstamp: z.number().int().nullable().describe('the commit in the shard directory now'),
  serving_opstamp: z.number().int().nullable().describe('the commit this node has taken in (searches use it)'),
});

export const ReadySchema = z.object({
  ready: z.literal(true),
  shards: z.number().int(),
  replicas: z.number().int(),
  index: z
    .object({
      caught_up: z.boolean().describe('false while this node serves an older commit than the one on disk (up to the reload poll, 500 ms)'),
      shards: z.array(ShardCommitSchema),
    })
    .describe('a node behind the index on disk is still ready: it serves its previous commit, whole'),
});

const JsonObject = z.record(z.string(), z.unknown());

export const ToolListingSchema = z.object({
  profile: z.string().optional().describe('present when a profile was chosen'),
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      inputSchema: JsonObject.describe('JSON Schema of the arguments'),
      outputSchema: JsonObject.describe('JSON Schema of structuredContent (the REST body)'),
      annotations: z.object({ readOnlyHint: z.boolean(), openWorldHint: z.boolean() }),
    }),
  ),
});

const JsonRpcId = z.union([z.string(), z.number().int()]);

/** A JSON-RPC 2.0 request, or a notification (no id). */
export const JsonRpcRequestSchema = z
  .strictObject({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.optional().describe('absent on notifications'),
    method: z.string().describe('server/discover (2026-07-28), initialize and notifications/initialized (2025), ping, tools/list, tools/call'),
    params: JsonObject.optional(),
  })
  .describe('a JSON-RPC 2.0 request or notification');

/**
 * What POST /mcp takes: one request or notification, or a batch of at most `maxMessages`. A batch
 * answers each item as it would alone, and a malformed item with its JSON-RPC error in place (HTTP
 * 200), so the batch's items are any JSON; a lone malformed message is a 400.
 */
export function jsonRpcBodySchema(maxMessages: number) {
  return z.union([
    JsonRpcRequestSchema,
    z.array(z.unknown()).min(1).max(maxMessages).describe('a batch: requests and notifications, each answered in place; a malformed item gets its -32600 there'),
  ]);
}

/** A JSON-RPC 2.0 response: a result or an error; id null when the request's could not be read. */
export const JsonRpcResponseSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    // the request's id as it came (any JSON number), or null
    id: z.union([z.string(), z.number()]).nullable(),
    result: JsonObject.optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .describe('a JSON-RPC 2.0 response');

/** What POST /mcp answers with 200: one response, or one per request of a batch. */
export const JsonRpcAnswerSchema = z.union([JsonRpcResponseSchema, z.array(JsonRpcResponseSchema)]);
