// Vitest setup file: every fast-check property of the suite prints, when it fails, the seed and path of
// the failing run (fast-check does), and is replayed from them with
// `FC_SEED=<seed> FC_PATH=<path> npx vitest run <file>`, so a failure in a CI log can be reproduced.
import fc from 'fast-check';

const seed = process.env.FC_SEED;
const path = process.env.FC_PATH;
fc.configureGlobal({
  verbose: 1,
  ...(seed !== undefined ? { seed: Number(seed), ...(path !== undefined ? { path, endOnFailure: true } : {}) } : {}),
});
