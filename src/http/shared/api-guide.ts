// The API guide (docs/API.md): served as Markdown by discovery at /docs/guide.md, and by web at /docs to
// clients that do not ask for HTML. Read once; the URL is the same from src/ (tests) and dist/.
import { readFileSync } from 'node:fs';

export const API_GUIDE = readFileSync(new URL('../../../docs/API.md', import.meta.url), 'utf8');
