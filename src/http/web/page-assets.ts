// The files every page loads, read once when the service starts; pages link to their fingerprinted paths.
import { PATHS } from '../shared/paths.js';
import { browserToolsAsset } from './browser-tools.js';
import { asset, CSS, JAVASCRIPT, ownAsset } from './static-assets.js';

export const PAGE_ASSETS = {
  stylesheet: asset(`${PATHS.webAssets}/page.css`, CSS, ownAsset('page.css')),
  script: asset(`${PATHS.webAssets}/page.js`, JAVASCRIPT, ownAsset('page.js')),
  icon: asset(`${PATHS.webAssets}/favicon.svg`, 'image/svg+xml', ownAsset('favicon.svg')),
  browserTools: browserToolsAsset(),
} as const;
