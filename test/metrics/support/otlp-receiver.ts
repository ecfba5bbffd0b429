/**
 * A local OTLP/HTTP metrics receiver for the tests, on a loopback port 0: it decodes every export with the
 * official OTLP definitions (fixtures/opentelemetry-proto, loaded by protobufjs) and keeps the decoded
 * requests, answering with an empty ExportMetricsServiceResponse — or with the status a test asks for.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import protobuf from 'protobufjs';

const PROTOS = join(import.meta.dirname, '../fixtures/opentelemetry-proto');

/** The official OTLP message types, loaded from the vendored .proto files. */
export function otlpTypes(): { request: protobuf.Type; response: protobuf.Type } {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTOS, target);
  root.loadSync('opentelemetry/proto/collector/metrics/v1/metrics_service.proto');
  return {
    request: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
    response: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse'),
  };
}

export interface OtlpReceiver {
  url: string;
  /** Every export received, decoded (plain objects, longs as numbers, enums as names). */
  requests: Record<string, unknown>[];
  /** Content types and paths of the requests, in order. */
  seen: { path: string; contentType: string | undefined }[];
  close(): Promise<void>;
}

/** Starts the receiver; `status` (default 200) is what it answers. */
export async function startOtlpReceiver(status = 200): Promise<OtlpReceiver> {
  const { request, response } = otlpTypes();
  const requests: Record<string, unknown>[] = [];
  const seen: OtlpReceiver['seen'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', contentType: req.headers['content-type'] });
      if (status !== 200) {
        res.writeHead(status, { 'content-type': 'text/plain' }).end('refused by the test');
        return;
      }
      const msg = request.decode(Buffer.concat(chunks));
      requests.push(request.toObject(msg, { longs: Number, enums: String, defaults: false, arrays: true }));
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(response.encode(response.create({})).finish()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/metrics`,
    requests,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
