import suite from '../../suites/customers.js';
import { proveSuite } from './stateful-harness.js';

proveSuite(suite, [
  'soft-delete-listed',
  'identity-lookup-finds-deleted',
  'delete-repeat-restores',
  'delete-hard',
  'delete-cascades',
  'delete-200-body',
]);
