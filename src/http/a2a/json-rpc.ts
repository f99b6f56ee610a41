// One JSON-RPC exchange of /a2a, dispatched to the SDK's transport handler for the A2A version asked
// for. The SDK maps every failure to its A2A code; what is left here is what its Express adapter does
// around it: reading the body (a malformed one is -32700), picking the version, and answering the
// streaming methods, which the card declares unsupported, with the SDK's refusal.
import { A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION, isV1JsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { A2A_ERROR_CODE, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import {
  type A2ARequestHandler,
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  type RequestHeaders,
  UnauthenticatedUser,
  validateVersion,
} from '@a2a-js/sdk/server';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../edge/json-limits.js';

export interface JsonRpcEnvelope {
  readonly jsonrpc: string;
  readonly id: string | number | null;
  readonly result?: unknown;
  readonly error?: unknown;
}

export type JsonRpcExchange = (body: string, headers: RequestHeaders) => Promise<JsonRpcEnvelope>;

export function jsonRpcExchange(requestHandler: A2ARequestHandler, card: AgentCard): JsonRpcExchange {
  const current = new JsonRpcTransportHandler(requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(requestHandler);

  return async (body, headers) => {
    if (nestsDeeperThan(body)) {
      return {
        jsonrpc: '2.0',
        id: null,
        error: { code: A2A_ERROR_CODE.INVALID_REQUEST, message: `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels.` },
      };
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return { jsonrpc: '2.0', id: null, error: { code: A2A_ERROR_CODE.PARSE_ERROR, message: 'Invalid JSON payload.' } };
    }
    const fields = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {};
    const id = typeof fields.id === 'string' || typeof fields.id === 'number' ? fields.id : null;
    // A 0.3 client sends no A2A-Version header; a 1.0 method sent without one is still read as 1.0.
    const header = [headers[A2A_VERSION_HEADER.toLowerCase()]].flat()[0];
    const version = header || (isV1JsonRpcMethod(fields.method) ? A2A_PROTOCOL_VERSION : A2A_LEGACY_PROTOCOL_VERSION);
    const isLegacy = version === A2A_LEGACY_PROTOCOL_VERSION;
    try {
      validateVersion(version, card, 'JSONRPC');
      const context = defaultServerCallContextBuilder({
        extensions: undefined,
        user: new UnauthenticatedUser(),
        headers,
        requestedVersion: version,
      });
      const answer = await (isLegacy ? legacy : current).handle(fields, context);
      return Symbol.asyncIterator in answer ? await refusal(answer) : answer;
    } catch (error) {
      const mapped = isLegacy
        ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
        : JsonRpcTransportHandler.mapToJSONRPCError(error);
      return { jsonrpc: '2.0', id, error: mapped };
    }
  };
}

/** The card says no streaming, so the SDK refuses a streaming method before its first event. */
async function refusal(stream: AsyncGenerator<JsonRpcEnvelope>): Promise<never> {
  await stream.next();
  await stream.return(undefined);
  throw new UnsupportedOperationError('Streaming is not supported.');
}
