/** The shared recording server (test/support), with a target for it and a request count, for engine tests. */
import { targetFromInput } from '../../../src/target/resolve.js';
import type { Target, TargetFileInput } from '../../../src/target/schema.js';
import { startRecordingServer } from '../../support/recording-server.js';

export const SECRET = 'pk_test_counting_secret_0123456789';

export interface CountingServer {
  target(extra?: Partial<TargetFileInput>): Target;
  /** Requests received so far (all paths, including the open model's warm-up outside /v1). */
  count(): number;
  close(): Promise<void>;
}

/** Starts the server on a loopback ephemeral port. */
export async function startCountingServer(): Promise<CountingServer> {
  const srv = await startRecordingServer();
  return {
    target: (extra = {}) =>
      targetFromInput(
        {
          baseUrl: srv.url,
          keys: { admin: { key: SECRET } },
          allowWrites: true,
          fixtures: { ids: { conversationId: 'conv_1' } },
          ...extra,
        },
        'test',
      ),
    count: () => srv.requests.length,
    close: () => srv.close(),
  };
}
