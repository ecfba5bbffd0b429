import suite from '../../suites/assistant.js';
import { proveSuite } from './stateful-harness.js';

proveSuite(suite, [
  'chat-ownership-leak', 'chat-member-allowed', 'cancel-completed-200', 'cancel-repeat-409',
  'sessions-oldest-first', 'sessions-archived-hidden', 'sessions-unbounded', 'sessions-paginated', 'receipt-undo-pending', 'turn-answer-dropped',
  'cancel-not-persisted',
  'sessions-cross-conversation', 'sessions-expired-listed', 'cancel-member-allowed', 'cancel-unwrapped',
]);
