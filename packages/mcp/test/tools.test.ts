/** The MCP glue without a server: argument renaming, result shapes and generated listings. */
import { errors } from '@evidence/schemas';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callTool, parametersFromArguments, renameProperties, Toolset, type ToolDefinition } from '@evidence/mcp';

const searchTool: ToolDefinition = {
  name: 'web_search',
  description: 'search',
  params: z.object({ q: z.string().describe('the query'), limit: z.coerce.number().int().default(10) }),
  response: z.object({ total: z.number().int() }),
  argumentAliases: { query: 'q' },
};

describe('tool definitions to MCP', () => {
  it('renames aliased arguments to REST parameters and leaves the others', () => {
    expect(parametersFromArguments(searchTool, { query: 'bread', limit: 3 })).toEqual({ q: 'bread', limit: 3 });
    expect(parametersFromArguments(searchTool, undefined)).toEqual({});
  });

  it('lists input schemas under MCP argument names, required list included, with no $schema', () => {
    const [listed] = new Toolset([searchTool]).listing.tools;
    expect(Object.keys(listed.inputSchema.properties as object)).toEqual(['query', 'limit']);
    expect(listed.inputSchema.required).toEqual(['query']);
    expect(listed.inputSchema.$schema).toBeUndefined();
    expect(listed.outputSchema).toMatchObject({ type: 'object', properties: { total: { type: 'integer' } } });
    expect(renameProperties({ type: 'object', properties: { id: {} } }, {})).toEqual({ type: 'object', properties: { id: {} } });
  });

  it('returns the body as structuredContent and as JSON text', async () => {
    const result = await callTool(searchTool, { query: 'bread' }, async (_tool, parameters) => ({ total: parameters.q === 'bread' ? 7 : 0 }));
    expect(result).toEqual({ content: [{ type: 'text', text: '{"total":7}' }], structuredContent: { total: 7 } });
  });

  it('turns a service error into isError with its text, naming the MCP argument for an aliased 400', async () => {
    const notFound = await callTool(searchTool, {}, async () => {
      throw errors.notFound('no passage with id x:1');
    });
    expect(notFound).toEqual({ content: [{ type: 'text', text: 'not found: no passage with id x:1' }], isError: true });
    const badQuery = await callTool(searchTool, {}, async () => {
      throw errors.badParameter('q', 'required: the query');
    });
    expect(badQuery.content).toEqual([{ type: 'text', text: 'invalid parameter query: required: the query' }]);
    const badLimit = await callTool(searchTool, {}, async () => {
      throw errors.badParameter('limit', 'an integer');
    });
    expect(badLimit.content).toEqual([{ type: 'text', text: 'invalid parameter limit: an integer' }]);
  });

  it('hides an internal error behind the REST 500 text', async () => {
    const original = console.error;
    console.error = () => {};
    try {
      const result = await callTool(searchTool, {}, async () => {
        throw new Error('secret detail');
      });
      expect(result).toEqual({ content: [{ type: 'text', text: 'internal error' }], isError: true });
    } finally {
      console.error = original;
    }
  });

  it('refuses a response schema that is not an object', () => {
    expect(() => new Toolset([{ ...searchTool, response: z.array(z.string()) }])).toThrow(/must be a JSON object schema/);
  });
});
