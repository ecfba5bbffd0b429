/**
 * JSON Schemas of the files users write by hand — the target file and load profiles — generated from the
 * zod schemas the loaders use, so an editor checks and completes them with the loader's own rules. The
 * generated files are committed under schemas/ (`npm run schemas`); a test fails when they drift.
 */
import { dirname, join, relative, sep } from 'node:path';
import { packagePath } from '../package-root.js';
import { z } from 'zod';
import { Profile } from '../load/profile.js';
import { TargetFile } from '../target/schema.js';

export interface JsonSchemaEntry {
  /** File name under schemas/. */
  file: string;
  /** The schema's `$id`: a URN, because the files are found by path (node_modules/spgate/schemas/…), not fetched. */
  id: string;
  title: string;
  description: string;
  schema: z.ZodType;
}

export const JSON_SCHEMAS: readonly JsonSchemaEntry[] = [
  {
    file: 'target.schema.json',
    id: 'urn:spgate:schema:target-file:1',
    title: 'spgate target file',
    description:
      'A deployment of the Support Platform API to test: base URL, keys by role (env: references), assumptions where the spec says "not shown", fixture ids and pools. Reference: docs/target-file.md.',
    schema: TargetFile,
  },
  {
    file: 'profile.schema.json',
    id: 'urn:spgate:schema:load-profile:1',
    title: 'spgate load profile',
    description:
      'A load profile: model, duration, per-class route mix and rates, thresholds. Reference: docs/profiles.md. Cross-field rules (the closed model needs connections, the open model exactly one of rate, ramp or schedule, the routes and offsets of a schedule within the class and duration, thresholds that parse) are checked by spgate when it loads the file.',
    schema: Profile,
  },
];

/** Where the committed schemas live (the package's schemas/ folder). */
export const SCHEMAS_DIR = packagePath('schemas');

/** The JSON Schema of one entry, as written to schemas/ (the input side: defaults are optional). */
export function generateJsonSchema(entry: JsonSchemaEntry): Record<string, unknown> {
  const generated = z.toJSONSchema(entry.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: entry.id, title: entry.title, description: entry.description, ...rest };
}

/** The file text of one entry's schema. */
export function renderJsonSchema(entry: JsonSchemaEntry): string {
  return JSON.stringify(generateJsonSchema(entry), null, 2) + '\n';
}

/** The `$schema` reference to put in a file at `filePath` so that editors find schemas/<file> (a relative path). */
export function schemaReference(filePath: string, file: string): string {
  const rel = relative(dirname(filePath), join(SCHEMAS_DIR, file)).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}
