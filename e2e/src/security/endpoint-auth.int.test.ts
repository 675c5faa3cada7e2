// Issue 9, bearer tokens on /metrics and the dashboard: the manager runs with --metrics-auth=token and
// --dashboard-auth=token, serving both over HTTPS (--tls-cert-file), under exactly deploy/20-rbac.yaml plus
// deploy/optional/endpoint-auth.yaml, and real ServiceAccount tokens are shown to it. The API server decides (TokenReview, SubjectAccessReview); the audit log
// shows how often it was asked, and the manager's log must not hold any token it saw.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditLog } from '../audit/audit-log.js';
import { freePort, type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import { createCa, createServingCert } from '../cluster/pki.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { adminCall, ensureNamespace, prepareHost } from '../ha/workload.js';
import { type ManagerProcess, startManager } from '../manager/manager-process.js';
import { auditBarrier } from '../restart/scenario.js';
import { applyRbac, bindTo, loadDeployRbac, type RbacObject } from './rbac.js';

const OPTIONAL_RBAC = new URL('../../../deploy/optional/endpoint-auth.yaml', import.meta.url).pathname;
const NS = 'monitoring';

async function serviceAccountToken(host: ClusterInfo, name: string): Promise<string> {
  await adminCall(
    host,
    'POST',
    `/api/v1/namespaces/${NS}/serviceaccounts`,
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
    [201, 409],
  );
  const request = (await adminCall(
    host,
    'POST',
    `/api/v1/namespaces/${NS}/serviceaccounts/${name}/token`,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    [201],
  )) as { status: { token: string } };
  return request.status.token;
}

function bindServiceAccount(role: string, account: string): RbacObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `${role}-${account}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'ServiceAccount', name: account, namespace: NS }],
  };
}

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly wwwAuthenticate: string | null;
}

/** The CA the manager's serving certificate is checked against (set in beforeAll). */
let servingCa: Buffer;

function get(url: string, token?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        ca: servingCa,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        timeout: 15_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            wwwAuthenticate: (res.headers['www-authenticate'] as string | undefined) ?? null,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

describe('bearer-token protection of /metrics and the dashboard (TokenReview + SubjectAccessReview)', () => {
  let set: LocalClusterSet;
  let host: ClusterInfo;
  let manager: ManagerProcess | undefined;
  let dashboardUrl: string;
  let metricsUrl: string;
  let pki: string;
  const tokens: Record<'prometheus' | 'viewer' | 'nobody', string> = {
    prometheus: '',
    viewer: '',
    nobody: '',
  };
  // A well-formed JWT the server never issued (the signature is garbage).
  const forged =
    'eyJhbGciOiJSUzI1NiIsImtpZCI6IngifQ.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6bW9uaXRvcmluZzpwcm9tZXRoZXVzIn0.c2lnbmF0dXJl';
  let since = 0;

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 1, managerAccess: 'none' });
    host = set.cluster('host');
    await prepareHost(host, []);
    await ensureNamespace(host, NS);
    const optional = loadDeployRbac(OPTIONAL_RBAC);
    await applyRbac(host, bindTo([...loadDeployRbac(), ...optional], host.managerUser));
    tokens.prometheus = await serviceAccountToken(host, 'prometheus');
    tokens.viewer = await serviceAccountToken(host, 'viewer');
    tokens.nobody = await serviceAccountToken(host, 'nobody');
    await applyRbac(host, [
      bindServiceAccount('warmstart-metrics-reader', 'prometheus'),
      bindServiceAccount('warmstart-dashboard-viewer', 'viewer'),
    ]);
    pki = await mkdtemp(join(tmpdir(), 'warmstart-endpoint-tls-'));
    const ca = await createCa(pki);
    const serving = await createServingCert(pki, ca, 'manager-serving');
    servingCa = await readFile(ca.cert);
    since = Date.now();
    const dashboardPort = await freePort();
    dashboardUrl = `https://127.0.0.1:${dashboardPort}`;
    manager = await startManager({
      kubeconfig: host.managerKubeconfig,
      identity: 'endpoint-auth',
      dashboardBindAddress: `127.0.0.1:${dashboardPort}`,
      args: [
        '--metrics-auth=token',
        '--dashboard-auth=token',
        `--tls-cert-file=${serving.cert}`,
        `--tls-private-key-file=${serving.key}`,
      ],
    });
    metricsUrl = manager.metricsUrl.replace(/^http:/, 'https:');
  }, 120_000);

  afterAll(async () => {
    await manager?.stop('SIGKILL');
    await set?.down();
    if (pki) await rm(pki, { recursive: true, force: true });
  });

  it('serves both over HTTPS with the given certificate, and not over plain HTTP', async () => {
    // The CA check in get() is the proof of the certificate; plain HTTP to the same port gets no answer.
    expect((await get(`${metricsUrl}/metrics`)).status).toBe(401);
    expect((await get(`${dashboardUrl}/status.json`)).status).toBe(401);
    const plain = await fetch(`${manager!.metricsUrl.replace(/^https:/, 'http:')}/metrics`, {
      signal: AbortSignal.timeout(5_000),
    }).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(plain).not.toBe(200);
  });

  it('serves /metrics only to a token whose user RBAC lets get /metrics', async () => {
    const url = `${metricsUrl}/metrics`;
    const anonymous = await get(url);
    expect([anonymous.status, anonymous.wwwAuthenticate]).toEqual([401, 'Bearer realm="warmstart-metrics"']);
    expect(anonymous.body).not.toContain('warmstart_');

    const forgedAnswer = await get(url, forged);
    expect(forgedAnswer.status).toBe(401);
    expect(forgedAnswer.body).toMatch(/did not accept the bearer token/);

    const nobody = await get(url, tokens.nobody);
    expect(nobody.status).toBe(403);
    expect(nobody.body).toContain('system:serviceaccount:monitoring:nobody');
    expect(nobody.body).not.toContain('warmstart_');

    // The dashboard's viewer may not scrape: the grant is per path.
    expect((await get(url, tokens.viewer)).status).toBe(403);

    const prometheus = await get(url, tokens.prometheus);
    expect(prometheus.status).toBe(200);
    expect(prometheus.body).toContain('warmstart_direct_reads_total');
  });

  it('serves the dashboard only to a token whose user may get the path asked for', async () => {
    for (const path of ['/', '/status.json']) {
      expect((await get(`${dashboardUrl}${path}`)).status).toBe(401);
      expect((await get(`${dashboardUrl}${path}`, tokens.prometheus)).status).toBe(403);
      const viewer = await get(`${dashboardUrl}${path}`, tokens.viewer);
      expect(viewer.status).toBe(200);
    }
    const snapshot = JSON.parse((await get(`${dashboardUrl}/status.json`, tokens.viewer)).body) as {
      strategy: string;
    };
    expect(snapshot.strategy).toBe('block-reads');
  });

  it('asks the API server once per token while its answer is remembered, and reads nothing directly', async () => {
    const url = `${metricsUrl}/metrics`;
    for (let i = 0; i < 20; i++) expect((await get(url, tokens.prometheus)).status).toBe(200);
    await auditBarrier(host);
    const events = await readAuditLog(host.auditLogPath!, { user: host.managerUser, since });
    const reviews = events.filter((e) => e.resourceKey === 'authentication.k8s.io/tokenreviews');
    const accessReviews = events.filter((e) => e.resourceKey === 'authorization.k8s.io/subjectaccessreviews');
    // Four distinct tokens were shown (forged, nobody, viewer, prometheus); 27 scrapes and 7 page loads.
    expect(reviews.length).toBeGreaterThanOrEqual(4);
    expect(reviews.length).toBeLessThanOrEqual(4 * 2);
    // Paths asked about per token: prometheus /metrics, /, /status.json; viewer the same; nobody /metrics.
    expect(accessReviews.length).toBeGreaterThanOrEqual(7);
    expect(accessReviews.length).toBeLessThanOrEqual(7 * 2);
    for (const e of [...reviews, ...accessReviews]) {
      expect(e.verb).toBe('create');
      expect(e.userAgent).toContain('(endpoint-auth)');
      expect(e.responseStatus?.code).toBe(201);
    }
    expect(events.filter((e) => e.class === 'direct-get' || e.class === 'direct-list')).toEqual([]);
  });

  it('never writes a token it was shown to its log', async () => {
    const log = manager!.logs().join('\n');
    for (const token of [forged, ...Object.values(tokens)]) {
      expect(log).not.toContain(token);
      // A JWT's signature alone would be enough to reuse it with its (public) header and payload.
      expect(log).not.toContain(token.split('.')[2]!);
    }
  });
});
