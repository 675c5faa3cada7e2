// Vitest global setup of the `containers` project: a Docker engine and the images (scripts/kind-setup.sh),
// or a failure that says why. Each file starts its own containers (they differ per test) and removes them.
import type { TestProject } from 'vitest/node';
import { containerTestsSkipped, ensureContainerEnv } from '../testing/container-env.js';

export default async function setup(project: TestProject): Promise<void> {
  if (containerTestsSkipped()) return;
  project.provide('containerEnv', await ensureContainerEnv());
}
