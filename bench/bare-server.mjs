// The baseline: a bare Fastify server answering a constant small JSON, nothing else.
import Fastify from 'fastify';

const app = Fastify();
app.get('/', () => ({
  id: 'CVE-2025-24530',
  project: 'phpMyAdmin',
  status: 'public',
  url: 'https://www.cve.org/CVERecord?id=CVE-2025-24530',
}));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`Server listening at http://127.0.0.1:${app.server.address().port}`);
