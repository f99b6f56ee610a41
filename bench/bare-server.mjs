// The baseline: a bare Fastify server answering a constant JSON, nothing else. Given a file, it answers
// that file's JSON (the bench passes the service's own get-one answer, so both send the same bytes).
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = process.argv[2]
  ? JSON.parse(readFileSync(process.argv[2], 'utf8'))
  : { id: 'CVE-2025-24530', project: 'phpMyAdmin', status: 'public', url: 'https://www.cve.org/CVERecord?id=CVE-2025-24530' };
const app = Fastify();
app.get('/', () => body);
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`Server listening at http://127.0.0.1:${app.server.address().port}`);
