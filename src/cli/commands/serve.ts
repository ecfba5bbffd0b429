/** `spgate serve` — placeholder until its issue lands. */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';

export const serveCommand: SpgateCommand = {
  command: 'serve',
  describe: '(not built yet)',
  builder: (y) => y,
  run: async () => {
    throw new SpgateError('SPGATE_ERR_USAGE', '`spgate serve` is not built yet');
  },
};
