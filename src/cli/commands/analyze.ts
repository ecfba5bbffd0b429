/** `spgate analyze` — placeholder until its issue lands. */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';

export const analyzeCommand: SpgateCommand = {
  command: 'analyze',
  describe: '(not built yet)',
  builder: (y) => y,
  run: async () => {
    throw new SpgateError('SPGATE_ERR_USAGE', '`spgate analyze` is not built yet');
  },
};
