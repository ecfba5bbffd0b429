/**
 * A throw-away PKI for the TLS tests, made with the openssl CLI in a temp folder: an internal CA, a server
 * certificate it issued (for localhost, 127.0.0.1 and api.staging.test), a client certificate it issued,
 * and a client certificate of another CA (one the server must refuse). EC keys: quick to make.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Pki {
  dir: string;
  /** Paths of PEM files. */
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  rogueClientCert: string;
  rogueClientKey: string;
  /** The PEM text of a file. */
  read(path: string): string;
}

export const STAGING_HOST = 'api.staging.test';

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
}

function newKey(dir: string, name: string): void {
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', name]);
}

function makeCa(dir: string, name: string): void {
  newKey(dir, `${name}.key`);
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

function issue(dir: string, ca: string, name: string, cn: string, ext: string): void {
  newKey(dir, `${name}.key`);
  openssl(dir, ['req', '-new', '-key', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`]);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
}

/** Makes the PKI in `dir`. */
export function makePki(dir: string): Pki {
  makeCa(dir, 'internal-ca');
  makeCa(dir, 'rogue-ca');
  issue(
    dir,
    'internal-ca',
    'server',
    'localhost',
    `subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:${STAGING_HOST}\nextendedKeyUsage=serverAuth\n`,
  );
  issue(dir, 'internal-ca', 'client', 'spgate-ci', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'rogue-ca', 'rogue-client', 'spgate-ci', 'extendedKeyUsage=clientAuth\n');
  const p = (f: string): string => join(dir, f);
  return {
    dir,
    caCert: p('internal-ca.pem'),
    serverCert: p('server.pem'),
    serverKey: p('server.key'),
    clientCert: p('client.pem'),
    clientKey: p('client.key'),
    rogueClientCert: p('rogue-client.pem'),
    rogueClientKey: p('rogue-client.key'),
    read: (path) => readFileSync(path, 'utf8'),
  };
}
