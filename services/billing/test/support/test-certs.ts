import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Paths of one certificate and its key (PEM). */
export interface CertFiles {
  cert: string;
  key: string;
}

/**
 * A certificate authority, the server certificate of a local fake API (127.0.0.1 and localhost), a client certificate
 * it signed (PEM, and the same as a .p12 with a passphrase), and a client certificate of another, unknown authority:
 * made with the `openssl` CLI in a temporary directory.
 */
export interface TestCerts {
  dir: string;
  ca: CertFiles;
  server: CertFiles;
  client: CertFiles;
  /** the client certificate and key in one PKCS#12 file */
  clientP12: string;
  clientP12Passphrase: string;
  /** signed by an authority the server does not know */
  rogue: CertFiles;
  read(path: string): Buffer;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function authority(dir: string, name: string): CertFiles {
  const files = { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
  openssl(
    [
      'req',
      '-x509',
      ...EC_KEY,
      '-keyout',
      files.key,
      '-out',
      files.cert,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  return files;
}

function leaf(dir: string, name: string, ca: CertFiles, extensions: string): CertFiles {
  const files = { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
  const csr = join(dir, `${name}.csr`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, extensions);
  openssl(['req', ...EC_KEY, '-keyout', files.key, '-out', csr, '-subj', `/CN=${name}`], dir);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      ca.cert,
      '-CAkey',
      ca.key,
      '-set_serial',
      String(randomInt(1, 2 ** 47)),
      '-days',
      '2',
      '-out',
      files.cert,
      '-extfile',
      ext,
    ],
    dir,
  );
  return files;
}

export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'billing-certs-'));
  const ca = authority(dir, 'test-ca');
  const server = leaf(dir, 'localhost', ca, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  const client = leaf(dir, 'conversa-billing', ca, 'extendedKeyUsage=clientAuth\n');
  const clientP12 = join(dir, 'conversa-billing.p12');
  const clientP12Passphrase = `p12-${randomInt(1e9)}`;
  openssl(
    ['pkcs12', '-export', '-in', client.cert, '-inkey', client.key, '-out', clientP12, '-passout', `pass:${clientP12Passphrase}`],
    dir,
  );
  const otherCa = authority(dir, 'other-ca');
  const rogue = leaf(dir, 'rogue-client', otherCa, 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    ca,
    server,
    client,
    clientP12,
    clientP12Passphrase,
    rogue,
    read: (path) => readFileSync(path),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
