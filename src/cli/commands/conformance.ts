/** `spgate conformance` — placeholder until its issue lands. */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';

export const conformanceCommand: SpgateCommand = {
  command: 'conformance',
  describe: '(not built yet)',
  builder: (y) => y,
  run: async () => {
    throw new SpgateError('SPGATE_ERR_USAGE', '`spgate conformance` is not built yet');
  },
};
