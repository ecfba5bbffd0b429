/** The tool's version, read from package.json once. */
import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.js';

export const VERSION: string = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
