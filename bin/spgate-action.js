#!/usr/bin/env node
// The GitHub Action's step (action.yml): runs src/action/github.ts through tsx, like bin/spgate.js.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/action/github.ts');
process.exitCode = await main();
