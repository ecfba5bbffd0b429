import suite from '../../suites/helpcenter.js';
import { proveSuite } from './stateful-harness.js';

proveSuite(suite, [
  'collection-key-pattern-lenient', 'collection-stale-accepted', 'collection-revision-static', 'collection-undelegated', 'collection-description-ignored',
]);
