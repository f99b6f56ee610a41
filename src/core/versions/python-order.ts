// PEP 440 versions through @renovatebot/pep440 (Renovate's implementation, the one its Python support uses).
import { compare, valid } from '@renovatebot/pep440';
import type { VersionOrder } from './order.js';

export const pythonOrder: VersionOrder<string> = {
  name: 'python',
  parse: (text) => (valid(text) === null ? undefined : text),
  compare: (a, b) => compare(a, b),
};
