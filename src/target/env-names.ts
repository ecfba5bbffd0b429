/** The environment variable names spgate suggests for keys (`env:NAME` references in target files). */
import type { KeyRole } from './schema.js';

/** SPGATE_<ROLE>_KEY, e.g. readOnly → SPGATE_READ_ONLY_KEY. */
export function envNameFor(role: KeyRole): string {
  return `SPGATE_${role.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_KEY`;
}
