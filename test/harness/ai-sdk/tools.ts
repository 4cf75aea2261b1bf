// The two-tool agent's AI SDK tools, backed by the fixture world.
import { jsonSchema, tool } from 'ai';
import { docsSearch, type GraphQuery, graphQuery } from '../helpers/world.js';

/** `graph_query`, answering with `execute` (default: the fixture graph). */
export const graphTool = (execute: (input: GraphQuery) => unknown = graphQuery) => ({
  graph_query: tool({
    description: 'Facts of the entity graph that touch an entity',
    inputSchema: jsonSchema<GraphQuery>({
      type: 'object',
      properties: { entity: { type: 'string' }, relation: { type: 'string' } },
      required: ['entity'],
    }),
    execute: async (input: GraphQuery) => execute(input),
  }),
});

/** `docs_search` over the fixture documents; an empty query fails, for a tool error. */
export const docsTool = () => ({
  docs_search: tool({
    description: 'Passages of the document store that contain a phrase',
    inputSchema: jsonSchema<{ query: string }>({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    }),
    execute: async ({ query }: { query: string }) => {
      if (query === '') throw new Error('empty query');
      return docsSearch({ query });
    },
  }),
});
