/** Every conformance suite, in the order they run (suites marked observesRun run last). */
import type { SuiteDef } from '../src/conformance/suite.js';
import auth from './auth.js';
import errors from './errors.js';
import pagination from './pagination.js';
import limits from './limits.js';
import shapes from './shapes.js';
import idempotency from './idempotency.js';
import status from './status.js';
import customers from './customers.js';
import attachments from './attachments.js';
import assistant from './assistant.js';
import helpcenter from './helpcenter.js';

export const SUITES: SuiteDef[] = [
  auth,
  pagination,
  shapes,
  errors,
  idempotency,
  status,
  customers,
  attachments,
  assistant,
  helpcenter,
  limits,
];
