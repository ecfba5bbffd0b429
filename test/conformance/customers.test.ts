import suite from '../../suites/customers.js';
import { proveSuite } from './stateful-harness.js';

proveSuite(suite, ['soft-delete-listed', 'delete-not-idempotent', 'delete-hard', 'delete-200-body']);
