/** `npm run schemas`: writes schemas/*.schema.json from the zod schemas (commit the result). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_SCHEMAS, SCHEMAS_DIR, renderJsonSchema } from './json-schemas.js';

mkdirSync(SCHEMAS_DIR, { recursive: true });
for (const entry of JSON_SCHEMAS) {
  writeFileSync(join(SCHEMAS_DIR, entry.file), renderJsonSchema(entry));
  process.stdout.write(`wrote schemas/${entry.file}\n`);
}
