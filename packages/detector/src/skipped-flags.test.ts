import { describe, expect, it } from 'vitest';
import { InvalidFlagError } from './errors.js';
import { parseSkippedPropagatingApis } from './skipped-apis.js';
import { compileSkippedNamespaces, splitStringSliceFlag } from './skipped-namespaces.js';

describe('--skipped-propagating-apis', () => {
  it("skips Karmada's groups, events and leases by default", () => {
    const c = parseSkippedPropagatingApis('');
    for (const g of [
      'cluster.karmada.io',
      'policy.karmada.io',
      'work.karmada.io',
      'apps.karmada.io',
      'events.k8s.io',
    ]) {
      expect(c.groupDisabled(g), g).toBe(true);
    }
    expect(c.kindDisabled('', 'v1', 'Event')).toBe(true);
    expect(c.groupVersionDisabled('coordination.k8s.io', 'v1')).toBe(true);
    expect(c.resourceDisabled({ group: 'apps', version: 'v1' }, ['Deployment'])).toBe(false);
    expect(c.resourceDisabled({ group: '', version: 'v1' }, ['Event'])).toBe(true);
  });

  it('parses a group, a group/version, core kinds and group/version/kinds', () => {
    const c = parseSkippedPropagatingApis(
      'networking.k8s.io;batch/v1;v1/Node,Pod;apps/v1/Deployment,StatefulSet',
    );
    expect(c.groupDisabled('networking.k8s.io')).toBe(true);
    expect(c.groupVersionDisabled('batch', 'v1')).toBe(true);
    expect(c.groupVersionDisabled('batch', 'v1beta1')).toBe(false);
    expect(c.kindDisabled('', 'v1', 'Node')).toBe(true);
    expect(c.kindDisabled('', 'v1', 'Pod')).toBe(true);
    expect(c.kindDisabled('', 'v1', 'ConfigMap')).toBe(false);
    expect(c.kindDisabled('apps', 'v1', 'Deployment')).toBe(true);
    expect(c.kindDisabled('apps', 'v1', 'StatefulSet')).toBe(true);
    expect(c.kindDisabled('apps', 'v1', 'DaemonSet')).toBe(false);
    expect(c.resourceDisabled({ group: 'apps', version: 'v1' }, ['Deployment'])).toBe(true);
    expect(c.resourceDisabled({ group: 'networking.k8s.io', version: 'v1' }, ['Ingress'])).toBe(true);
  });

  it('refuses "v1/<Kind>" repeated after a comma (two slashes read as <group>/<version>/<Kind>; Karmada panics)', () => {
    expect(() => parseSkippedPropagatingApis('v1/Node,v1/Secret')).toThrow(InvalidFlagError);
  });

  it('gives bare kinds the group and version of the last full entry, as Karmada does', () => {
    const c = parseSkippedPropagatingApis('Job,batch/v1/CronJob');
    expect(c.kindDisabled('batch', 'v1', 'Job')).toBe(true);
    expect(c.kindDisabled('batch', 'v1', 'CronJob')).toBe(true);
  });

  it.each([
    ['too many slashes', 'a/b/c/d'],
    ['an empty entry', 'batch;'],
    ['a malformed kind list', 'a/b,c/d'],
  ])('rejects %s with a typed error', (_name, value) => {
    expect(() => parseSkippedPropagatingApis(value)).toThrow(InvalidFlagError);
  });
});

describe('--skipped-propagating-namespaces', () => {
  it('defaults to kube-.* anchored at both ends', () => {
    const [re] = compileSkippedNamespaces();
    expect(re!.source).toBe('^kube-.*$');
    expect(re!.test('kube-system')).toBe(true);
    expect(re!.test('my-kube-system')).toBe(false);
  });

  it('splits like pflag and anchors every pattern', () => {
    const patterns = splitStringSliceFlag('kube-.*,team-(a|b),"x,y"');
    expect(patterns).toEqual(['kube-.*', 'team-(a|b)', 'x,y']);
    const res = compileSkippedNamespaces(patterns);
    expect(res.map((r) => r.test('team-a'))).toEqual([false, true, false]);
    expect(res.map((r) => r.test('team-ab'))).toEqual([false, false, false]);
  });

  it('rejects a pattern that does not compile, naming it', () => {
    expect(() => compileSkippedNamespaces(['ok', 'bad('])).toThrow(
      /"bad\(" is not a valid regular expression/,
    );
    expect(() => splitStringSliceFlag('"open')).toThrow(InvalidFlagError);
  });
});
