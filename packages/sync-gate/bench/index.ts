// Entry point of `pnpm --filter @warmstart/sync-gate bench`: runs every bench against the built package.
import { arch, cpus } from 'node:os';
import { benchGateRelease } from './gate-release.ts';
import { benchReadyz } from './readyz.ts';

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`@warmstart/sync-gate bench — node ${process.version}, ${arch()}, ${cpus().length} x ${cpu}`);
await benchGateRelease();
await benchReadyz();
