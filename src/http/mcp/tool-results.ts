// Tool results. A success carries the answer twice, as `structuredContent` and as its JSON text for
// clients that read only text. A failure is a tool error (`isError`), so the model sees it and can
// correct itself, with the `error` member of the REST ErrorResponse as its text: the same code,
// message and details. It carries no `structuredContent`, which clients would check against the
// tool's output schema.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { type ErrorResponse, errorMember, type ServiceError } from '../../contract/index.js';

/** The answer, and a hint for the model as a text block of its own when there is one. */
export function toolAnswer(data: unknown, hint?: string): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(data) }];
  if (hint !== undefined) content.push({ type: 'text', text: hint });
  return { content, structuredContent: data as Record<string, unknown> };
}

export function toolError(error: ServiceError): CallToolResult {
  const body: Pick<ErrorResponse, 'error'> = { error: errorMember(error) };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
