import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/temp-dirs.js';
import {
  CpuRequestError,
  CpuRequestGroups,
  joinGroupVia,
  parseCpuRequests,
  sharesForMilliCpu,
  weightForShares,
} from './cpu-requests.js';

const tempDir = useTempDirs('cpu-requests-test-');

describe('parseCpuRequests', () => {
  it('reads cores and millicores per role', () => {
    const r = parseCpuRequests(['manager=1', 'kube-apiserver=250m', 'etcd=0.1']);
    expect([...r]).toEqual([
      ['manager', 1000],
      ['kube-apiserver', 250],
      ['etcd', 100],
    ]);
  });

  it.each([
    ['scheduler=1', /ROLE one of manager/],
    ['manager', /ROLE=QUANTITY/],
    ['manager=fast', /not a CPU quantity/],
    ['manager=0', /not a CPU quantity/],
    ['manager=0.0001', /not a CPU quantity/],
  ])('refuses %s with a message that says what to write', (spec, message) => {
    expect(() => parseCpuRequests([spec])).toThrow(CpuRequestError);
    expect(() => parseCpuRequests([spec])).toThrow(message);
  });

  it('refuses a role given twice', () => {
    expect(() => parseCpuRequests(['etcd=100m', 'etcd=200m'])).toThrow(/given twice/);
  });
});

describe('the kubelet weights', () => {
  it('turns requests into cpu.shares and cpu.weight as the kubelet does', () => {
    expect(sharesForMilliCpu(1000)).toBe(1024);
    expect(sharesForMilliCpu(250)).toBe(256);
    expect(sharesForMilliCpu(1)).toBe(2);
    expect(weightForShares(2)).toBe(1);
    expect(weightForShares(1024)).toBe(39);
    expect(weightForShares(262144)).toBe(10000);
  });
});

describe('CpuRequestGroups', () => {
  it('creates a weighted group per role under a cgroup v1 cpu hierarchy', () => {
    const root = tempDir();
    mkdirSync(join(root, 'cpu'));
    writeFileSync(join(root, 'cpu', 'cpu.shares'), '1024');
    const groups = CpuRequestGroups.create(parseCpuRequests(['manager=1', 'etcd=100m']), root);
    const base = join(root, 'cpu', `warmstart-bench-${process.pid}`);
    expect(readFileSync(join(base, 'manager', 'cpu.shares'), 'utf8')).toBe('1024');
    expect(readFileSync(join(base, 'etcd', 'cpu.shares'), 'utf8')).toBe('102');
    expect(groups.procsFile('manager')).toBe(join(base, 'manager', 'cgroup.procs'));
    expect(groups.procsFile('kube-apiserver')).toBeUndefined();
    expect(groups.via('kube-apiserver', '/bin/true', [])).toBeUndefined();
    expect(groups.describe()).toBe('manager 1000m (cpu.shares 1024), etcd 100m (cpu.shares 102)');
  });

  it('gives each named instance of a role a group of its own with the weight of the role', () => {
    const root = tempDir();
    mkdirSync(join(root, 'cpu'));
    writeFileSync(join(root, 'cpu', 'cpu.shares'), '1024');
    const groups = CpuRequestGroups.create(parseCpuRequests(['kube-apiserver=250m']), root);
    const base = join(root, 'cpu', `warmstart-bench-${process.pid}`);
    expect(groups.procsFile('kube-apiserver', 'host')).toBe(
      join(base, 'kube-apiserver-host', 'cgroup.procs'),
    );
    expect(groups.procsFile('kube-apiserver', 'member1')).toBe(
      join(base, 'kube-apiserver-member1', 'cgroup.procs'),
    );
    expect(readFileSync(join(base, 'kube-apiserver-host', 'cpu.shares'), 'utf8')).toBe('256');
    expect(readFileSync(join(base, 'kube-apiserver-member1', 'cpu.shares'), 'utf8')).toBe('256');
  });

  it('enables the cpu controller for its children under cgroup v2', () => {
    const root = tempDir();
    writeFileSync(join(root, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
    const groups = CpuRequestGroups.create(parseCpuRequests(['manager=1']), root);
    const base = join(root, `warmstart-bench-${process.pid}`);
    expect(readFileSync(join(base, 'cgroup.subtree_control'), 'utf8')).toBe('+cpu');
    expect(readFileSync(join(base, 'manager', 'cpu.weight'), 'utf8')).toBe('39');
    expect(groups.describe()).toBe('manager 1000m (cpu.weight 39)');
  });

  it('says what to do when no hierarchy has the cpu controller', () => {
    const root = tempDir();
    writeFileSync(join(root, 'cgroup.controllers'), 'memory pids\n');
    expect(() => CpuRequestGroups.create(parseCpuRequests(['manager=1']), root)).toThrow(
      /run without --cpu-request/,
    );
  });

  it('removes the empty groups of a bench that is gone, and keeps those of one still running', () => {
    const root = tempDir();
    mkdirSync(join(root, 'cpu'));
    writeFileSync(join(root, 'cpu', 'cpu.shares'), '1024');
    // pid 2^22 + 1 is above Linux's pid_max limit, so no process has it.
    const gone = join(root, 'cpu', `warmstart-bench-${2 ** 22 + 1}`);
    mkdirSync(join(gone, 'manager'), { recursive: true });
    const running = join(root, 'cpu', `warmstart-bench-${process.ppid}`);
    mkdirSync(join(running, 'manager'), { recursive: true });
    CpuRequestGroups.create(parseCpuRequests(['manager=1']), root);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(join(running, 'manager'))).toBe(true);
  });

  it('removes its groups once they are empty', () => {
    const root = tempDir();
    mkdirSync(join(root, 'cpu'));
    writeFileSync(join(root, 'cpu', 'cpu.shares'), '1024');
    const groups = CpuRequestGroups.create(parseCpuRequests(['manager=1']), root);
    // A real cgroup directory holds only kernel files; this one holds the file the test wrote, so empty it first.
    rmSync(join(root, 'cpu', `warmstart-bench-${process.pid}`, 'manager', 'cpu.shares'));
    groups.remove();
    expect(existsSync(join(root, 'cpu', `warmstart-bench-${process.pid}`))).toBe(false);
  });
});

describe('joinGroupVia', () => {
  it('writes the pid the command then runs under, before the command starts', () => {
    const procs = join(tempDir(), 'cgroup.procs');
    const via = joinGroupVia(procs, '/bin/sh', ['-c', 'cat "$0"; echo " $$"', procs]);
    const out = spawnSync(via.command, via.args, { encoding: 'utf8' });
    expect(out.status).toBe(0);
    const [written, own] = out.stdout.trim().split(/\s+/);
    expect(written).toBe(own);
  });

  it('does not start the command when the group cannot be joined', () => {
    const via = joinGroupVia('/nonexistent/cgroup.procs', '/bin/echo', ['started']);
    const out = spawnSync(via.command, via.args, { encoding: 'utf8' });
    expect(out.status).not.toBe(0);
    expect(out.stdout).toBe('');
  });
});
