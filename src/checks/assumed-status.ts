/**
 * Answers whose meaning the spec shows but whose HTTP status it does not ("not shown"): the part the spec
 * states is judged under its `spec` clause, the assumed status under its own `assumed` clause, so a
 * deployment that picked another status gets a warning about the assumption, never a spec error, and a
 * wrong status never hides (or fakes) the verdict on what the spec does say. Pure functions over one exchange.
 */
import type { Exchange } from '../client/exchange.js';
import type { ClauseId } from '../spec/clauses.js';
import { describeBody, errorCode, type ClauseViolation } from './envelope.js';

function answer(x: Exchange): string {
  const r = x.response;
  if (!r) return describeBody(x);
  const code = errorCode(x);
  return `HTTP ${r.status}${code !== undefined ? ` with error.code "${code}"` : ''} — ${describeBody(x)}`;
}

/**
 * An error answer with a spec-named code and an assumed status: a wrong or missing code is a violation of
 * `codeClause`; with the right code, a status other than `status` is a violation of `statusClause`.
 */
export function checkCodeThenStatus(
  x: Exchange,
  code: string,
  codeClause: ClauseId,
  status: number,
  statusClause: ClauseId,
): ClauseViolation | undefined {
  if (errorCode(x) !== code) return { clause: codeClause, expected: `an error with error.code "${code}"`, actual: answer(x) };
  if (x.response?.status === status) return undefined;
  return {
    clause: statusClause,
    expected: `error.code "${code}" with HTTP ${status} (assumed: the spec shows no status)`,
    actual: answer(x),
  };
}

/**
 * A request the spec says is rejected, without showing the status: anything but a 4xx violates
 * `rejectClause`; a 4xx other than the assumed `status` violates `statusClause`.
 */
export function checkRejectedWith(
  x: Exchange,
  status: number,
  what: string,
  rejectClause: ClauseId,
  statusClause: ClauseId,
): ClauseViolation | undefined {
  const s = x.response?.status;
  if (s === undefined || s < 400 || s > 499) return { clause: rejectClause, expected: `${what}: rejected with a 4xx`, actual: answer(x) };
  if (s === status) return undefined;
  return { clause: statusClause, expected: `${what}: HTTP ${status} (assumed: the spec shows no status)`, actual: answer(x) };
}
