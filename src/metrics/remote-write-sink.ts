/** A Prometheus remote write endpoint as a metrics sink: each push is one WriteRequest of every series. */
import { MetricsPoster } from './http-post.js';
import type { MetricsEndpoint } from './options.js';
import type { MetricsSnapshot } from './model.js';
import type { MetricsSink } from './pusher.js';
import { encodeWriteRequest, REMOTE_WRITE_HEADERS, type RunLabels } from './remote-write.js';

export class RemoteWriteSink implements MetricsSink {
  readonly display: string;
  private readonly poster: MetricsPoster;

  constructor(
    endpoint: MetricsEndpoint,
    private readonly run: RunLabels,
  ) {
    this.display = endpoint.display;
    this.poster = new MetricsPoster(endpoint.url, endpoint.headers);
  }

  /** Sends the snapshot (cumulative: a later push supersedes a lost one). */
  push(s: MetricsSnapshot, deadline: number): Promise<void> {
    return this.poster.post(encodeWriteRequest(s, this.run), REMOTE_WRITE_HEADERS, deadline);
  }

  close(): Promise<void> {
    return this.poster.close();
  }
}
