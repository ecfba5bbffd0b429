/** Loopback ports with a known fate for the whole test run. */
import net from 'node:net';

/**
 * A loopback port that refuses connections for the whole run: port 1, below the range the kernel hands out
 * for port 0, so no server a test starts can take it. A port bound and released instead was taken by
 * another file's server between the release and the connection (a 401 where a refusal was expected).
 * Throws, naming the port, when something does listen there.
 */
export async function refusingPort(): Promise<number> {
  const port = 1;
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      reject(new Error(`something listens on 127.0.0.1:${port}; the tests need a port that refuses connections`));
    });
    socket.once('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNREFUSED' ? resolve() : reject(e)));
  });
  return port;
}
