// Record search for the agent surfaces: the search of /ask, with its reading of the query, its hits,
// scores and texts, and the records themselves beside them so an agent reads project and status
// without parsing a title.
import { ASK_LIMIT, type CveRecord, type NlwebResult, type RecordSearchResults } from '../../contract/index.js';
import { searchWhenReady } from '../../core/search/search.js';
import type { SurfaceContext } from './context.js';
import { toNlwebResult } from './result-shaping.js';

export interface AgentSearch {
  /** The query searched: the caller's (cut to the query bound), or the default phrase of /ask when it is blank. */
  readonly query: string;
  /** How the query was read, one reading per item, as /ask reports it. */
  readonly understood: string[];
  /** Best first, each record with the NLWeb result /ask shows for it. */
  readonly hits: readonly { readonly record: CveRecord; readonly shown: NlwebResult }[];
}

export async function agentSearch(ctx: SurfaceContext, query: string | undefined, limit: number = ASK_LIMIT.default): Promise<AgentSearch> {
  const found = await searchWhenReady(ctx.store.current, query ?? '', limit);
  const { baseUrl, siteName } = ctx.config;
  return {
    query: found.understanding.query,
    understood: [...found.explanation],
    hits: found.hits.map((hit) => ({ record: hit.entry.record, shown: toNlwebResult(hit, baseUrl, siteName) })),
  };
}

/** The answer of MCP `search_cve_records` and the data of an A2A reply. */
export async function searchAnswer(ctx: SurfaceContext, query: string | undefined, limit?: number): Promise<RecordSearchResults> {
  const { hits, ...reading } = await agentSearch(ctx, query, limit);
  return { ...reading, results: hits.map(({ record, shown }) => ({ record, score: shown.score, snippet: shown.snippet })) };
}
