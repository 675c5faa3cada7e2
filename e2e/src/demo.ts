// The README's main job: a local control plane (host + members) that stays up until Ctrl-C, with how to
// reach it printed. The controller-manager issue grows this into the full propagation demo.
import { LocalProvider } from './cluster/local-provider.js';

const clusters = Number(process.env.WARMSTART_DEMO_CLUSTERS ?? 3);
const set = await new LocalProvider().up({ clusters });
const lines = [
  '',
  'warmstart local control plane is up. Press Ctrl-C to stop everything.',
  '',
  ...set.clusters.map(
    (c) =>
      `  ${c.name.padEnd(8)} ${c.server}\n           admin:   export KUBECONFIG=${c.adminKubeconfig}\n           manager: ${c.managerKubeconfig}\n           audit:   ${c.auditLogPath}`,
  ),
  '',
  'Try: curl --cacert <ca> ... or any Kubernetes client with the admin kubeconfig above.',
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
// Stay alive until a signal; the supervisor's hooks stop every process and remove the work directory.
setInterval(() => undefined, 1 << 30);
