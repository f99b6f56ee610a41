// The operator's id lists: `CVE-YYYY-NNNN[<TAB>project]` per line, `#` starts a comment. Used for the
// cleared ids (`--ids`, the project is needed only for ids without a public record) and the override
// map (`--overrides`, the project is required).
import { CVE_ID_REGEX } from '../contract/index.js';

export class IdListError extends Error {}

export function parseIdList(text: string, file: string, options: { projectRequired: boolean }): Map<string, string | undefined> {
  const entries = new Map<string, string | undefined>();
  const lines = new Map<string, number>();
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const content = raw.replace(/(^|\s)#.*$/, '').trim();
    if (content === '') return;
    const tab = content.search(/\t/);
    const id = (tab === -1 ? content : content.slice(0, tab)).trim();
    const project =
      tab === -1
        ? undefined
        : content
            .slice(tab + 1)
            .replace(/\s+/g, ' ')
            .trim() || undefined;
    if (!CVE_ID_REGEX.test(id)) problems.push(`${file}:${line}: ${JSON.stringify(id)} is not a CVE id`);
    else if (options.projectRequired && project === undefined)
      problems.push(`${file}:${line}: ${id} has no project (expected "<id><TAB><project>")`);
    else if (lines.has(id)) problems.push(`${file}:${line}: ${id} is already listed on line ${lines.get(id)}`);
    else {
      lines.set(id, line);
      entries.set(id, project);
    }
  });
  if (problems.length > 0) throw new IdListError(problems.join('\n'));
  return entries;
}
