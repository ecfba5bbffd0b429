import { describe, expect, it } from 'vitest';
import suite from '../../suites/attachments.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { proveSuite, runSuite } from './stateful-harness.js';

proveSuite(suite, [
  'attachment-expiry-long',
  'attachment-external-200',
  'attachment-deleted-downloadable',
  'attachments-single-scope',
  'download-file-bytes',
  'attachment-cross-workspace',
  'attachments-conversations-scope-unchecked',
  'attachment-url-never-expires',
]);

describe('attachment findings keep signed URLs out', () => {
  it('a failing descriptor check reports no URL signature anywhere in the outcome', async () => {
    const server = await startReferenceServer({
      seed: 5,
      budgets: { read: 1e6, write: 1e6 },
      faults: ['attachment-expiry-long', 'attachment-deleted-downloadable'],
    });
    try {
      const out = await runSuite(server, suite, 5);
      expect(out.findings.map((f) => f.clause).sort()).toEqual(['4.6.deleted', '4.6.expiry']);
      expect(JSON.stringify(out)).not.toMatch(/signature=[0-9a-f]{8,}/i);
    } finally {
      await server.close();
    }
  });
});
