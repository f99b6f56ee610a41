// A store whose steps are also written to a second store (`sync --to-database`: a SQLite or JSON catalog
// that holds the cursor, PostgreSQL beside it). The mirror's step commits inside the primary's, before it:
// a stop in between leaves the primary's cursor where it was, so the step is redone and written to both
// again (the same rows, which changes nothing served). The mirror holds the step's rows until then.
import type { CatalogProject, CatalogRemoval } from '../../contract/index.js';
import type { RecordStore, StoredRecord, StoreWriter } from '../../core/record-store.js';

export function mirroredStore(primary: RecordStore, mirror: RecordStore): RecordStore {
  return {
    ...primary,
    name: `${primary.name} and ${mirror.name}`,
    step: (work) =>
      primary.step(async (writer) => {
        const upserted: StoredRecord[] = [];
        const removed: CatalogRemoval[] = [];
        const projects: CatalogProject[] = [];
        const groups: { groups: ReadonlyMap<string, string>; whole: boolean }[] = [];
        const recording: StoreWriter = {
          ...writer,
          state: writer.state,
          upsert: async (records) => {
            upserted.push(...records);
            await writer.upsert(records);
          },
          remove: async (removals) => {
            removed.push(...removals);
            await writer.remove(removals);
          },
          setAliases: async (changed) => {
            projects.push(...changed);
            await writer.setAliases(changed);
          },
          setGroups: async (changed, whole) => {
            groups.push({ groups: changed, whole });
            await writer.setGroups(changed, whole);
          },
        };
        const done = await work(recording);
        await mirror.step(async (copy) => {
          await copy.upsert(upserted);
          await copy.remove(removed);
          await copy.setAliases(projects);
          for (const set of groups) await copy.setGroups(set.groups, set.whole);
          return { end: done.end, result: undefined };
        });
        return done;
      }),
    close: async () => {
      await Promise.all([primary.close(), mirror.close()]);
    },
  };
}
