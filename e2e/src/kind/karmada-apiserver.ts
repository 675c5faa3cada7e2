// Karmada's control plane inside the host kind cluster, laid out as Karmada's own install does it
// (artifacts/deploy of karmada-io/karmada at f8fdd02df3760fd9521624f284877fa84e7be6ef): etcd and a kube-apiserver
// ("karmada-apiserver", host network, port 5443) run as pods of the host cluster, next to a kube-controller-manager
// that runs only the garbage collector and the namespace controller (as the local provider's). Templates,
// policies, bindings and Works live on this API server, and the manager talks to it through a kubeconfig Secret.
// Nothing here reconciles a Deployment (no deployment controller, no scheduler, no kubelet behind it), so a
// template changes only when someone changes it on purpose: on the host cluster's own API server the full
// kube-controller-manager rewrote the templates' status while the manager was down, and a restarted manager
// rightly re-recorded each template's new resourceVersion in its binding (issue #18).
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { adminRequest, type TlsIdentity } from '../cluster/admin-client.js';
import { docker } from '../cluster/docker.js';
import type { KindCluster } from '../cluster/kind-provider.js';
import { writeKubeconfig } from '../cluster/kubeconfig.js';
import { createCa, createClientCert, createServiceAccountKey, createServingCert } from '../cluster/pki.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { NAMESPACE, nodeKubectl } from './in-cluster.js';

/** The port Karmada's install serves karmada-apiserver on (host network). */
export const KARMADA_APISERVER_PORT = 5443;
/** The Secret holding the manager's kubeconfig for the Karmada API server (key `karmada.config`). */
export const KARMADA_CONFIG_SECRET = 'warmstart-karmada-config';
/** The username the Karmada API server sees for the manager (its client certificate's CN). */
export const KARMADA_MANAGER_USER = 'warmstart-controller-manager';
const ADMIN_USER = 'karmada-admin';
const NODE_AUDIT_SUBDIR = 'karmada';

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`;

/** The Karmada API server: reached from the harness at the node's address, from pods through its Service. */
export interface KarmadaApiserver extends ClusterInfo {
  /** https://<Service address>:5443, what the manager's kubeconfig names. */
  readonly internalServer: string;
}

type Manifest = Record<string, unknown>;

const b64 = async (path: string): Promise<string> => (await readFile(path)).toString('base64');

/** The image kubeadm runs a control-plane component with on this node (the node image carries it). */
async function staticPodImage(host: KindCluster, component: string): Promise<string> {
  const { stdout } = await docker([
    'exec',
    host.nodeContainer,
    'cat',
    `/etc/kubernetes/manifests/${component}.yaml`,
  ]);
  const image = /^\s*image:\s*(\S+)\s*$/m.exec(stdout)?.[1];
  if (!image)
    throw new Error(`no image in ${host.nodeContainer}:/etc/kubernetes/manifests/${component}.yaml`);
  return image;
}

function deployment(name: string, pod: Manifest, hostNetwork = false): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NAMESPACE, labels: { app: name } },
    spec: {
      replicas: 1,
      strategy: { type: 'Recreate' },
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          automountServiceAccountToken: false,
          ...(hostNetwork ? { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' } : {}),
          tolerations: [{ operator: 'Exists' }],
          ...pod,
        },
      },
    },
  };
}

function service(name: string, app: string, port: number): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: NAMESPACE, labels: { app } },
    spec: { selector: { app }, ports: [{ name: 'api', port, targetPort: port }] },
  };
}

async function apply(host: KindCluster, docs: readonly Manifest[]): Promise<void> {
  await nodeKubectl(
    host,
    ['apply', '--server-side', '--force-conflicts', '-f', '-'],
    docs.map((d) => stringify(d)).join('---\n'),
  );
}

async function clusterIp(host: KindCluster, name: string): Promise<string> {
  const ip = (
    await nodeKubectl(host, ['-n', NAMESPACE, 'get', 'service', name, '-o', 'jsonpath={.spec.clusterIP}'])
  ).trim();
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip))
    throw new Error(`Service ${NAMESPACE}/${name} has no ClusterIP: "${ip}"`);
  return ip;
}

/**
 * Starts etcd, karmada-apiserver and its kube-controller-manager in `host` and waits until the API server is
 * ready. Its audit log (level Metadata, JSON) is written through the node's audit mount, so the harness reads it
 * next to the host cluster's own.
 */
export async function installKarmadaApiserver(host: KindCluster): Promise<KarmadaApiserver> {
  if (!host.auditLogPath) throw new Error(`${host.kindName} has no audit log mount`);
  const nodeIp = new URL(host.internalServer).hostname;
  const dir = join(dirname(host.auditLogPath), '..', 'karmada-pki');
  await mkdir(dir, { recursive: true });
  const [etcdImage, apiserverImage, kcmImage] = await Promise.all([
    staticPodImage(host, 'etcd'),
    staticPodImage(host, 'kube-apiserver'),
    staticPodImage(host, 'kube-controller-manager'),
  ]);

  // The Services first: their addresses go into the serving certificate and the kubeconfigs.
  await apply(host, [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } },
    service('etcd-client', 'karmada-etcd', 2379),
    service('karmada-apiserver', 'karmada-apiserver', KARMADA_APISERVER_PORT),
  ]);
  const etcdIp = await clusterIp(host, 'etcd-client');
  const apiserverIp = await clusterIp(host, 'karmada-apiserver');

  const ca = await createCa(dir);
  const serving = await createServingCert(
    dir,
    ca,
    'karmada-apiserver',
    [
      'karmada-apiserver',
      `karmada-apiserver.${NAMESPACE}.svc`,
      `karmada-apiserver.${NAMESPACE}.svc.cluster.local`,
    ],
    [nodeIp, apiserverIp],
  );
  const admin = await createClientCert(dir, ca, ADMIN_USER, ['system:masters']);
  const manager = await createClientCert(dir, ca, KARMADA_MANAGER_USER, []);
  const kcm = await createClientCert(dir, ca, 'system:kube-controller-manager', ['system:masters']);
  const sa = await createServiceAccountKey(dir);
  const server = `https://${nodeIp}:${KARMADA_APISERVER_PORT}`;
  const internalServer = `https://${apiserverIp}:${KARMADA_APISERVER_PORT}`;
  const kubeconfig = (path: string, srv: string, user: string, pair: { cert: string; key: string }) =>
    writeKubeconfig({
      path: join(dir, path),
      name: 'karmada',
      server: srv,
      caPath: ca.cert,
      user,
      certPath: pair.cert,
      keyPath: pair.key,
    });
  const adminKubeconfig = await kubeconfig('admin.kubeconfig', server, ADMIN_USER, admin);
  const managerKubeconfig = await kubeconfig('manager.kubeconfig', server, KARMADA_MANAGER_USER, manager);
  const managerInCluster = await kubeconfig(
    'manager-in-cluster.kubeconfig',
    internalServer,
    KARMADA_MANAGER_USER,
    manager,
  );
  const kcmInCluster = await kubeconfig('kcm.kubeconfig', internalServer, 'kcm', kcm);

  const pki = '/etc/karmada/pki';
  const auditDir = `/var/log/kubernetes/${NODE_AUDIT_SUBDIR}`;
  await apply(host, [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'karmada-apiserver-pki', namespace: NAMESPACE },
      data: {
        'ca.crt': await b64(ca.cert),
        'tls.crt': await b64(serving.cert),
        'tls.key': await b64(serving.key),
        'sa.pub': await b64(sa.pub),
        'sa.key': await b64(sa.key),
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'karmada-kube-controller-manager-config', namespace: NAMESPACE },
      data: { 'karmada.config': await b64(kcmInCluster) },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: KARMADA_CONFIG_SECRET, namespace: NAMESPACE },
      data: { 'karmada.config': await b64(managerInCluster) },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'karmada-audit-policy', namespace: NAMESPACE },
      data: { 'policy.yaml': AUDIT_POLICY },
    },
    deployment('karmada-etcd', {
      containers: [
        {
          name: 'etcd',
          image: etcdImage,
          imagePullPolicy: 'Never',
          command: [
            'etcd',
            '--name=karmada-etcd',
            '--data-dir=/var/lib/etcd',
            '--listen-client-urls=http://0.0.0.0:2379',
            `--advertise-client-urls=http://${etcdIp}:2379`,
            '--listen-peer-urls=http://127.0.0.1:2380',
            '--initial-advertise-peer-urls=http://127.0.0.1:2380',
            '--initial-cluster=karmada-etcd=http://127.0.0.1:2380',
            // Test data only, on a machine whose disk is shared by every agent: as the local provider's etcd.
            '--unsafe-no-fsync=true',
            '--quota-backend-bytes=8589934592',
            '--log-level=warn',
          ],
          ports: [{ containerPort: 2379 }],
          volumeMounts: [{ name: 'data', mountPath: '/var/lib/etcd' }],
        },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
    }),
    deployment(
      'karmada-apiserver',
      {
        containers: [
          {
            name: 'karmada-apiserver',
            image: apiserverImage,
            imagePullPolicy: 'Never',
            command: [
              'kube-apiserver',
              `--etcd-servers=http://${etcdIp}:2379`,
              `--secure-port=${KARMADA_APISERVER_PORT}`,
              '--bind-address=0.0.0.0',
              `--advertise-address=${nodeIp}`,
              `--tls-cert-file=${pki}/tls.crt`,
              `--tls-private-key-file=${pki}/tls.key`,
              `--client-ca-file=${pki}/ca.crt`,
              '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
              `--service-account-key-file=${pki}/sa.pub`,
              `--service-account-signing-key-file=${pki}/sa.key`,
              '--service-cluster-ip-range=10.96.0.0/12',
              '--authorization-mode=RBAC',
              '--allow-privileged=true',
              '--disable-admission-plugins=StorageObjectInUseProtection,ServiceAccount',
              // No Service of this API server fronts pods: nothing needs its own `kubernetes` endpoints.
              '--endpoint-reconciler-type=none',
              '--audit-policy-file=/etc/karmada/audit/policy.yaml',
              `--audit-log-path=${auditDir}/audit.log`,
              '--audit-log-format=json',
              '--audit-log-maxsize=4096',
              '--profiling=false',
            ],
            livenessProbe: {
              httpGet: { path: '/livez', port: KARMADA_APISERVER_PORT, scheme: 'HTTPS' },
              initialDelaySeconds: 10,
              periodSeconds: 10,
              timeoutSeconds: 15,
              failureThreshold: 8,
            },
            volumeMounts: [
              { name: 'pki', mountPath: pki, readOnly: true },
              { name: 'audit-policy', mountPath: '/etc/karmada/audit', readOnly: true },
              { name: 'audit-log', mountPath: auditDir },
            ],
          },
        ],
        volumes: [
          { name: 'pki', secret: { secretName: 'karmada-apiserver-pki' } },
          { name: 'audit-policy', configMap: { name: 'karmada-audit-policy' } },
          { name: 'audit-log', hostPath: { path: auditDir, type: 'DirectoryOrCreate' } },
        ],
      },
      true,
    ),
    deployment('karmada-kube-controller-manager', {
      containers: [
        {
          name: 'kube-controller-manager',
          image: kcmImage,
          imagePullPolicy: 'Never',
          command: [
            'kube-controller-manager',
            '--kubeconfig=/etc/karmada/config/karmada.config',
            '--authentication-kubeconfig=/etc/karmada/config/karmada.config',
            '--authorization-kubeconfig=/etc/karmada/config/karmada.config',
            // What the local provider runs: no controller that writes a template's status.
            '--controllers=garbagecollector,namespace',
            '--leader-elect=false',
            '--use-service-account-credentials=false',
            '--bind-address=127.0.0.1',
            '--cert-dir=/tmp/kcm-certs',
          ],
          volumeMounts: [{ name: 'config', mountPath: '/etc/karmada/config', readOnly: true }],
        },
      ],
      volumes: [{ name: 'config', secret: { secretName: 'karmada-kube-controller-manager-config' } }],
    }),
  ]);

  const identity: TlsIdentity = {
    server,
    caPath: ca.cert,
    certPath: admin.cert,
    keyPath: admin.key,
  };
  await waitFor(
    `karmada-apiserver /readyz at ${server}`,
    async () => {
      const res = await adminRequest(identity, 'GET', '/readyz').catch(() => undefined);
      return (
        res?.status === 200 &&
        (await adminRequest(identity, 'GET', '/api/v1/namespaces/default')).status === 200
      );
    },
    { timeoutMs: 240_000, intervalMs: 1000 },
  );
  return {
    name: 'karmada',
    server,
    internalServer,
    adminKubeconfig,
    managerKubeconfig,
    managerUser: KARMADA_MANAGER_USER,
    adminUser: ADMIN_USER,
    auditLogPath: join(dirname(host.auditLogPath), NODE_AUDIT_SUBDIR, 'audit.log'),
    caPath: ca.cert,
  };
}
