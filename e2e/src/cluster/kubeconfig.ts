// Writes a self-contained kubeconfig (certificates embedded) for one identity on one API server.
import { readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  readonly path: string;
  readonly name: string;
  readonly server: string;
  readonly caPath: string;
  readonly user: string;
  readonly certPath: string;
  readonly keyPath: string;
}

const b64 = async (path: string): Promise<string> => (await readFile(path)).toString('base64');

export async function writeKubeconfig(options: KubeconfigOptions): Promise<string> {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': options.name,
    clusters: [
      {
        name: options.name,
        cluster: { server: options.server, 'certificate-authority-data': await b64(options.caPath) },
      },
    ],
    users: [
      {
        name: options.user,
        user: {
          'client-certificate-data': await b64(options.certPath),
          'client-key-data': await b64(options.keyPath),
        },
      },
    ],
    contexts: [{ name: options.name, context: { cluster: options.name, user: options.user } }],
  };
  await writeFile(options.path, stringify(doc), { mode: 0o600 });
  return options.path;
}
