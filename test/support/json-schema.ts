/** A real JSON Schema validator (ajv, draft 2020-12, with formats) over the committed schemas/ files. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { SCHEMAS_DIR } from '../../src/schemas/json-schemas.js';

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

/** The validator of schemas/<file>, compiled once. */
export function schemaValidator(file: 'target.schema.json' | 'profile.schema.json'): (data: unknown) => ErrorObject[] {
  let v = compiled.get(file);
  if (!v) {
    v = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')) as object);
    compiled.set(file, v);
  }
  const validate = v;
  return (data) => (validate(data) ? [] : [...(validate.errors ?? [])]);
}
