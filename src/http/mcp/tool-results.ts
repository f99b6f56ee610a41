// Tool results. A success carries the answer twice, as `structuredContent` and as its JSON text for
// clients that read only text. A failure is a tool error (`isError`), so the model sees it and can
// correct itself, with the `error` member of the REST ErrorResponse as its text: the same code,
// message and details. It carries no `structuredContent`, which clients would check against the
// tool's output schema.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { type ErrorResponse, errorMember, type ServiceError } from '../../contract/index.js';

export function toolAnswer(data: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data as Record<string, unknown> };
}

export function toolError(error: ServiceError): CallToolResult {
  const body: Pick<ErrorResponse, 'error'> = { error: errorMember(error) };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
