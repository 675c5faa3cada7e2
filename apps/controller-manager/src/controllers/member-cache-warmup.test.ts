import type { Work } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { policyKinds, workKinds, workKindsInSlices } from './member-cache-warmup.js';

describe('the kinds a member cache is warmed for', () => {
  it('takes every selected kind of every policy once', () => {
    const kinds = policyKinds([
      {
        spec: {
          resourceSelectors: [
            { apiVersion: 'apps/v1', kind: 'Deployment' },
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'a' },
          ],
        },
      },
      { spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'x' }] } },
    ]);
    expect(kinds).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'v1', kind: 'ConfigMap' },
    ]);
  });

  it('takes the kinds of Works and skips manifests without apiVersion or kind', () => {
    const work = (manifests: unknown[]): Work =>
      ({
        apiVersion: 'work.karmada.io/v1alpha1',
        kind: 'Work',
        metadata: { name: 'w', namespace: 'karmada-es-m1' },
        spec: { workload: { manifests } },
      }) as Work;
    const kinds = workKinds([
      work([{ apiVersion: 'apps/v1', kind: 'Deployment' }, { kind: 'Secret' }, 'not an object', null]),
      work([
        { apiVersion: 'v1', kind: 'Service' },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ]),
    ]);
    expect(kinds).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'v1', kind: 'Service' },
    ]);
  });

  it('finds the same kinds over many Works in slices, across slice boundaries', async () => {
    const work = (i: number): Work =>
      ({
        apiVersion: 'work.karmada.io/v1alpha1',
        kind: 'Work',
        metadata: { name: `w-${i}`, namespace: 'karmada-es-m1' },
        spec: {
          workload: {
            // One kind only in the last Work of the second slice and one only in the very last Work.
            manifests: [
              { apiVersion: 'apps/v1', kind: 'Deployment' },
              ...(i === 1_023 ? [{ apiVersion: 'v1', kind: 'Service' }] : []),
              ...(i === 1_999 ? [{ apiVersion: 'batch/v1', kind: 'Job' }] : []),
            ],
          },
        },
      }) as Work;
    const works = Array.from({ length: 2_000 }, (_, i) => work(i));
    expect(await workKindsInSlices(works)).toEqual(workKinds(works));
    expect(await workKindsInSlices(works)).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'v1', kind: 'Service' },
      { apiVersion: 'batch/v1', kind: 'Job' },
    ]);
    expect(await workKindsInSlices([])).toEqual([]);
  });
});
