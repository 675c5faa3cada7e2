// Issue 9, bad input in policies, against the built manager on the shared set. Each case gets its documented
// outcome, /livez stays 200 throughout, and a normal Deployment + policy created afterwards still propagates:
// - an invalid label selector: a Warning Event InvalidResourceSelector on the policy, and the policy matches
//   nothing (not even the template a lax parser would match) until it is fixed, when it claims at once;
// - an unknown kind: a Warning Event UnknownResourceKind, and the policy's other selectors still work;
// - two policies of equal priority selecting the same Deployment: the smaller name wins (Karmada's tie-break),
//   whichever was created first, and again after a SIGKILL restart, for old and new templates alike.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../cluster/wait.js';
import type { ManagerProcess } from '../manager/manager-process.js';
import {
  assertStillServing,
  type BadInputSet,
  bindings,
  deployment,
  deployments,
  type KubeObject,
  LivezWatch,
  PERMANENT_ID,
  POLICY_NAME,
  POLICY_NAMESPACE,
  policies,
  prepareSet,
  propagationPolicy,
  removeNamespaces,
  startReadyManager,
  uniqueNamespace,
  waitForEvent,
  waitQueuesDrained,
} from './fixture.js';

const IDENTITY = 'badinput-policies';

describe('bad input in policies', () => {
  let set: BadInputSet;
  let manager: ManagerProcess;
  let livez: LivezWatch;
  const created: string[] = [];

  beforeAll(async () => {
    set = await prepareSet(inject('clusters'));
    manager = await startReadyManager(set, IDENTITY);
    livez = new LivezWatch(manager);
  }, 180_000);

  afterAll(async () => {
    livez?.stop();
    if (set && created.length > 0) await removeNamespaces(set, created, 120_000);
    await manager?.stop('SIGTERM');
  }, 180_000);

  const binding = (ns: string, name: string) =>
    set.host.get<KubeObject>(`${bindings(ns)}/${name.toLowerCase()}`);
  const permanentId = async (ns: string, policy: string): Promise<string> =>
    waitFor(
      `the permanent id of ${ns}/${policy}`,
      async () =>
        (await set.host.get<KubeObject>(`${policies(ns)}/${policy}`))?.metadata.labels?.[PERMANENT_ID],
      { timeoutMs: 30_000, intervalMs: 200 },
    );

  it('an invalid label selector: Warning InvalidResourceSelector, matches nothing, claims once fixed', async () => {
    const ns = await uniqueNamespace(set, 'bad-selector', created);
    await set.host.create(deployments(ns), deployment(ns, 'web', 2, { tier: 'frontend' }));
    // `Exists` takes no values: metav1 rejects this selector. A lax parser that ignored the values would match
    // the Deployment above, so "matches nothing" is a decision here, not an accident.
    const broken = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      labelSelector: {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'tier', operator: 'Exists', values: ['frontend'] }],
      },
    };
    await set.host.create(policies(ns), propagationPolicy(ns, 'broken', [broken], set.memberNames));

    const warning = await waitForEvent(set.host, ns, {
      kind: 'PropagationPolicy',
      name: 'broken',
      reason: 'InvalidResourceSelector',
    });
    expect(warning.type).toBe('Warning');
    expect(warning.message).toMatch(/Exists takes no values/);
    await waitQueuesDrained(manager);
    expect(await binding(ns, 'web-deployment')).toBeUndefined();
    const web = await set.host.get<KubeObject>(`${deployments(ns)}/web`);
    expect(web?.metadata.labels?.[PERMANENT_ID]).toBeUndefined();

    // Fixed, the same policy claims the template it selects.
    await set.host.mergePatch(`${policies(ns)}/broken`, {
      spec: { resourceSelectors: [{ ...broken, labelSelector: { matchLabels: { app: 'web' } } }] },
    });
    const bound = await waitFor('web bound once the selector is fixed', () => binding(ns, 'web-deployment'), {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    expect(bound.metadata.annotations?.[POLICY_NAME]).toBe('broken');
    await assertStillServing(set, manager, livez, created);
  });

  it('an unknown kind: Warning UnknownResourceKind, and the known selector of the same policy still binds', async () => {
    const ns = await uniqueNamespace(set, 'bad-kind', created);
    await set.host.create(deployments(ns), deployment(ns, 'api', 1));
    await set.host.create(
      policies(ns),
      propagationPolicy(
        ns,
        'mixed',
        [
          { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' },
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
        ],
        set.memberNames,
      ),
    );
    const warning = await waitForEvent(set.host, ns, {
      kind: 'PropagationPolicy',
      name: 'mixed',
      reason: 'UnknownResourceKind',
    });
    expect(warning.type).toBe('Warning');
    expect(warning.message).toContain('example.com/v1/Widget');
    const bound = await waitFor('api bound by the known selector', () => binding(ns, 'api-deployment'), {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    expect(bound.metadata.annotations?.[POLICY_NAME]).toBe('mixed');
    await assertStillServing(set, manager, livez, created);
  });

  it('equal priority: the smaller name wins, created second, and still after a SIGKILL restart', async () => {
    const ns = await uniqueNamespace(set, 'tie', created);
    const selector = [
      { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { contest: 'yes' } } },
    ];
    // The loser is created first, so creation order would pick it; Karmada's rule picks by name.
    await set.host.create(
      policies(ns),
      propagationPolicy(ns, 'zeta', selector, set.memberNames, { priority: 5 }),
    );
    await set.host.create(
      policies(ns),
      propagationPolicy(ns, 'alpha', selector, set.memberNames, { priority: 5 }),
    );
    // Both in the detector's cache (it has stamped their permanent ids) before any template arrives.
    const alphaId = await permanentId(ns, 'alpha');
    const zetaId = await permanentId(ns, 'zeta');
    expect(alphaId).not.toBe(zetaId);

    const expectAlpha = async (name: string): Promise<void> => {
      const b = await waitFor(`${name} bound`, () => binding(ns, `${name}-deployment`), {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      expect(b.metadata.labels?.[PERMANENT_ID]).toBe(alphaId);
      expect(b.metadata.annotations?.[POLICY_NAME]).toBe('alpha');
      expect(b.metadata.annotations?.[POLICY_NAMESPACE]).toBe(ns);
      const t = await set.host.get<KubeObject>(`${deployments(ns)}/${name}`);
      expect(t?.metadata.labels?.[PERMANENT_ID]).toBe(alphaId);
      expect(t?.metadata.annotations?.[POLICY_NAME]).toBe('alpha');
    };
    await set.host.create(deployments(ns), deployment(ns, 'contested', 1, { contest: 'yes' }));
    await expectAlpha('contested');

    livez.pause();
    await manager.stop('SIGKILL');
    manager = await startReadyManager(set, IDENTITY);
    livez.follow(manager);
    // A template the new process meets for the first time, with both policies from its initial list.
    await set.host.create(deployments(ns), deployment(ns, 'contested-2', 1, { contest: 'yes' }));
    await expectAlpha('contested-2');
    // And the old one, after the new process has worked through its start-up backlog.
    await waitQueuesDrained(manager);
    await expectAlpha('contested');
    await assertStillServing(set, manager, livez, created);
  });
});
