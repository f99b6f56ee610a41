// A store that checks every record a step writes as a catalog file's record is checked (catalog-validation.ts):
// the mapping should make a problem impossible, and a row a server would refuse is never committed. The
// step fails whole, naming the record, and the store and its cursor stay as they were.
import type { RecordStore } from '../../core/record-store.js';
import { type CatalogProblem, recordProblems } from '../catalog-validation.js';

export class InvalidRowError extends Error {}

export function checkedStore(store: RecordStore): RecordStore {
  return {
    ...store,
    step: (work) =>
      store.step((writer) =>
        work({
          ...writer,
          state: writer.state,
          upsert: async (records) => {
            const problems: CatalogProblem[] = [];
            for (const { record, details } of records) {
              recordProblems(
                details === undefined ? record : { ...record, details: JSON.parse(details) },
                `/records/${record.id}`,
                problems,
              );
              if (problems.length > 0)
                throw new InvalidRowError(`${problems[0]!.pointer}: ${problems[0]!.problem}; nothing of the step written`);
            }
            await writer.upsert(records);
          },
        }),
      ),
  };
}
