// /a2a with the official A2A client over a real socket: it reads the agent card from the well-known
// path, picks the JSON-RPC 1.0 interface, and asks about records.
import { type Message, type Part, Role } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordSearchResults } from '../../../src/contract/index.js';
import { buildListeningApp } from '../../support/app.js';

let app: FastifyInstance;
let baseUrl: string;
let client: Client;
beforeAll(async () => {
  ({ app, baseUrl } = await buildListeningApp());
  client = await new ClientFactory().createFromUrl(baseUrl);
});
afterAll(() => app.close());

function ask(text: string): Promise<Message> {
  const part: Part = { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
  const message: Message = {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [part],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return client.sendMessage({ tenant: '', message, configuration: undefined, metadata: undefined }) as Promise<Message>;
}

function partsOf(message: Message): { text: string; data: RecordSearchResults } {
  const text = message.parts.find((p) => p.content?.$case === 'text')?.content?.value as string;
  const data = message.parts.find((p) => p.content?.$case === 'data')?.content?.value as RecordSearchResults;
  return { text, data };
}

describe('the A2A client', () => {
  it('talks A2A 1.0 over JSON-RPC, as the card offers', () => {
    expect(client.protocolVersion).toBe('1.0');
  });

  it('looks a record up by id: a readable text part and the record as data', async () => {
    const reply = await ask('What is CVE-2025-9999?');
    expect(reply.role).toBe(Role.ROLE_AGENT);
    expect(reply.messageId).not.toBe('');
    const { text, data } = partsOf(reply);
    expect(text).toContain('CVE-2025-9999 (openssl, public');
    expect(data.results[0]).toEqual({
      record: { id: 'CVE-2025-9999', project: 'openssl', status: 'public', url: 'https://www.cve.org/CVERecord?id=CVE-2025-9999' },
      score: 1,
      snippet: expect.any(String),
    });
    const media = reply.parts.map((p) => p.mediaType);
    expect(media).toEqual(['text/plain', 'application/json']);
  });

  it('answers with what /ask answers for the same words', async () => {
    for (const question of ['curl', 'openssl', 'not yet public']) {
      const { data } = partsOf(await ask(question));
      const nlweb = (await app.inject(`/ask?query=${encodeURIComponent(question)}`)).json() as {
        understood: string[];
        results: { name: string; score: number }[];
      };
      expect(data.query).toBe(question);
      expect(data.understood, question).toEqual(nlweb.understood);
      expect(
        data.results.map((r) => `${r.record.id} (${r.record.project})`),
        question,
      ).toEqual(nlweb.results.map((r) => r.name));
      expect(
        data.results.map((r) => r.score),
        question,
      ).toEqual(nlweb.results.map((r) => r.score));
    }
  });

  it('says so when nothing matches', async () => {
    const { text, data } = partsOf(await ask('CVE-1999-0001'));
    expect(data.results).toEqual([]);
    expect(text).toMatch(/^No record matches "CVE-1999-0001"/);
    expect(text).not.toMatch(/Projects/);
  });

  it("answers a misspelt project name with that project's records, and says which word matched nothing", async () => {
    // Before issue 26 a question with a word matching nothing answered nothing and named the projects it
    // might mean; now any word may match, so the misspelt name alone finds OpenSSL's records.
    const { text, data } = partsOf(await ask('opnssl xqzvwk'));
    expect(data.results.length).toBeGreaterThan(0);
    expect(data.results[0]?.record.project).toBe('openssl');
    expect(text).toContain('nothing matches "xqzvwk"');
  });

  // The client itself refuses streaming and push calls, reading the card; raw requests reach the
  // server with them (a2a-json-rpc.test.ts).
  it('gets TaskNotFound for a task: answers are messages, no task is ever kept', async () => {
    await expect(client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined })).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
  });
});

describe('the agent card', () => {
  it('names the agent, its absolute JSON-RPC 1.0 endpoint, no streaming or push, and its skills', async () => {
    const response = await app.inject('/.well-known/agent-card.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const card = response.json();
    expect(card).toMatchObject({ name: 'public-cve-records', version: '1.0.0', description: expect.stringContaining('CVE records') });
    expect(card.supportedInterfaces[0]).toEqual({ url: `${baseUrl}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    expect(card.supportedInterfaces).toContainEqual({ url: `${baseUrl}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' });
    expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(['lookup-records', 'search-records', 'list-records', 'check-versions']);
  });

  it("carries what a 0.3 client reads, naming the same endpoint, and is served at 0.3's path too", async () => {
    const card = (await app.inject('/.well-known/agent-card.json')).json();
    expect(card).toMatchObject({
      url: `${baseUrl}/a2a`,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
      additionalInterfaces: [{ url: `${baseUrl}/a2a`, transport: 'JSONRPC' }],
    });
    const legacy = await app.inject('/.well-known/agent.json');
    expect(legacy.statusCode).toBe(200);
    expect(legacy.json()).toEqual(card);
  });

  it('is cacheable: Cache-Control, ETag, and 304 for a client that holds it', async () => {
    const first = await app.inject('/.well-known/agent-card.json');
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    const again = await app.inject({ url: '/.well-known/agent-card.json', headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });
});
