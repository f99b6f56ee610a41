// Vitest global setup of the `browser` project (vitest.config.ts): the Chromium its tests drive. Test
// tools cannot download a browser of their own here, so it is Debian's (CHROMIUM_PATH names another).
import { existsSync } from 'node:fs';
import { ensureDebianPackage } from './debian-packages.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default function setup(): void {
  if (process.env.CHROMIUM_PATH !== undefined && !existsSync(CHROMIUM))
    throw new Error(`CHROMIUM_PATH names ${CHROMIUM}, which is missing.`);
  ensureDebianPackage(`Chromium (${CHROMIUM})`, 'chromium', () => existsSync(CHROMIUM));
}
