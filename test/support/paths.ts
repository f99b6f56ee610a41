// Files the tests read, by their place in the repository, so a test file can move between folders
// without its paths changing meaning.
import { fileURLToPath } from 'node:url';

const REPOSITORY = new URL('../../', import.meta.url);

/** A URL of a file or folder, relative to the repository root. */
export const repositoryUrl = (relative: string): URL => new URL(relative, REPOSITORY);
/** A file system path, relative to the repository root. */
export const repositoryPath = (relative: string): string => fileURLToPath(repositoryUrl(relative));
/** A file system path under test/fixtures. */
export const fixturePath = (relative: string): string => repositoryPath(`test/fixtures/${relative}`);
/** The shared sample of real CVE records, beside the repository (absent in a clone elsewhere). */
export const SAMPLE_ZIP = fileURLToPath(new URL('../shared/data/cvelist-sample.zip', REPOSITORY));
