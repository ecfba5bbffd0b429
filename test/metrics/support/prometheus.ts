/**
 * A real Prometheus for the live-metrics tests: started as a child with its remote-write receiver on a free
 * loopback port, an empty TSDB in a temporary folder and a configuration that scrapes nothing; queried
 * through its HTTP API. Start-up is bounded (it is killed when not ready in time), and `stop()` kills it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningPrometheus {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The remote-write receiver's URL. */
  writeUrl: string;
  /** An instant query at `time` (epoch seconds; default now): the result vector. */
  query(promql: string, time?: number): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

/** A loopback port free at the moment (Prometheus cannot be told to take port 0 and say which it got). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts `bin` and waits (at most `readyMs`) until it answers /-/ready. */
export async function startPrometheus(bin: string, readyMs = 30_000): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'spgate-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, 'global:\n  scrape_interval: 1h\n');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    bin,
    [
      '--web.enable-remote-write-receiver',
      `--web.listen-address=127.0.0.1:${port}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--config.file=${config}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr!.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = async (): Promise<void> => {
    if (!exited) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`prometheus exited before it was ready: ${log}`);
    }
    try {
      const r = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus not ready after ${readyMs} ms: ${log}`);
    }
    await sleep(200);
  }
  return {
    url,
    writeUrl: `${url}/api/v1/write`,
    async query(promql, time) {
      const params = new URLSearchParams({ query: promql, ...(time !== undefined ? { time: String(time) } : {}) });
      const r = await fetch(`${url}/api/v1/query?${params}`, { signal: AbortSignal.timeout(10_000) });
      const body = (await r.json()) as {
        status: string;
        error?: string;
        data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== 'success') throw new Error(`query ${promql}: ${body.error ?? r.status}`);
      return body.data!.result;
    },
    stop,
  };
}
