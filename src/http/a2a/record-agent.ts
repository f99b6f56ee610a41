// The agent behind /a2a. It reads the text of the message as /ask reads a query (or, naming package URLs or
// CPE names, as version checks: version-skill.ts) and answers at once
// with one Message: a readable list (with the details of records asked for by id) and, as a data part, the same records, scores and texts as MCP's
// search_cve_records. It never creates a task, so there is nothing to poll, subscribe to or cancel.
import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { RecordSearchResults } from '../../contract/index.js';
import { recordDetails } from '../../core/details.js';
import { closestProjects } from '../../core/project-list.js';
import { searchAnswer } from '../shared/agent-search.js';
import type { SurfaceContext } from '../shared/context.js';
import { detailsText } from '../shared/details-text.js';
import { versionAnswer, versionQueries } from './version-skill.js';

export function recordAgent(ctx: SurfaceContext): AgentExecutor {
  return {
    async execute(request: RequestContext, events: ExecutionEventBus): Promise<void> {
      const question = request.userMessage.parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');
      // Package URLs and CPE names are version checks (the check-versions skill); anything else is searched.
      const checks = versionQueries(question);
      const found = checks.length > 0 ? await versionAnswer(ctx, question, checks) : await searchAnswer(ctx, question);
      // An empty answer to a misspelt project name would read as "no such CVEs": name the projects it may mean.
      const meant = found.results.length === 0 && question.trim() !== '' ? await closestProjects(ctx.store.current, question, 5) : [];
      events.publish(AgentEvent.message(answer(request.contextId, found, meant, ctx)));
      events.finished();
    },
    async cancelTask(): Promise<void> {
      throw new UnsupportedOperationError('This agent answers with messages at once; it has no task to cancel.');
    },
  };
}

function answer(contextId: string, found: RecordSearchResults, meant: readonly string[], ctx: SurfaceContext): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId: '',
    role: Role.ROLE_AGENT,
    parts: [
      part({ $case: 'text', value: readable(found, ctx) + closest(meant) }, 'text/plain'),
      part({ $case: 'data', value: found }, 'application/json'),
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function part(content: Part['content'], mediaType: string): Part {
  return { content, metadata: undefined, filename: '', mediaType };
}

/** Records asked for by id (score 1) whose details the answer spells out: a question about one CVE wants them. */
const DETAILED = 3;

function readable({ query, understood, results }: RecordSearchResults, ctx: SurfaceContext): string {
  const reading = understood.length ? ` (read as: ${inert(understood.join('; '))})` : '';
  if (results.length === 0) return `No record matches "${inert(query)}"${reading}.`;
  let detailed = 0;
  const lines = results.map(({ record, score, snippet }) => {
    const line = `- ${record.id} (${inert(record.project)}, ${record.status}, score ${score.toFixed(2)}): ${inert(snippet)}${record.url ? ` ${record.url}` : ''}`;
    const entry = score === 1 && detailed < DETAILED ? ctx.store.current.get(record.id) : undefined;
    if (!entry) return line;
    detailed++;
    const details = detailsText(recordDetails(entry), entry.summary);
    return [line, ...details.split('\n').map((text) => `  ${inert(text)}`)].join('\n');
  });
  return [`${results.length} record${results.length === 1 ? '' : 's'} for "${inert(query)}"${reading}:`, ...lines].join('\n');
}

function closest(meant: readonly string[]): string {
  return meant.length === 0 ? '' : `\nProjects with a name like that: ${meant.map(inert).join(', ')}.`;
}

/**
 * Record text (and the caller's own words) made inert for clients that render a text part as Markdown
 * or HTML, as chat interfaces do: the characters that open a tag, a link or an image are escaped the
 * CommonMark way, so a summary holding `<img src=x onerror=…>` or `[click](javascript:…)` reads as
 * text. The data part carries the same text unchanged.
 */
function inert(text: string): string {
  return text.replace(/[\\<>[\]`]/g, '\\$&');
}
