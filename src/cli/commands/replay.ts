/** `spgate replay` — placeholder until its issue lands. */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';

export const replayCommand: SpgateCommand = {
  command: 'replay',
  describe: '(not built yet)',
  builder: (y) => y,
  run: async () => {
    throw new SpgateError('SPGATE_ERR_USAGE', '`spgate replay` is not built yet');
  },
};
