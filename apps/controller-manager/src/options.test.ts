import { describe, expect, it } from 'vitest';
import { isControllerEnabled } from './controllers-flag.js';
import { formatDuration, parseDuration } from './duration.js';
import { FlagError, helpText, type ManagerOptions, parseBindAddress, parseOptions } from './options.js';

const parse = (...argv: string[]): ManagerOptions => {
  const o = parseOptions(argv);
  if (o === 'help') throw new Error('unexpected help');
  return o;
};

describe('parseOptions', () => {
  it("defaults follow karmada-controller-manager's", () => {
    const o = parse();
    expect(o.kubeApiQps).toBe(40);
    expect(o.kubeApiBurst).toBe(60);
    expect(o.leaderElect).toBe(true);
    expect(o.leaderElectLeaseDurationMs).toBe(15_000);
    expect(o.leaderElectRenewDeadlineMs).toBe(10_000);
    expect(o.leaderElectRetryPeriodMs).toBe(2_000);
    expect(o.leaderElectResourceNamespace).toBe('karmada-system');
    expect(o.healthProbeBindAddress).toBe(':10357');
    expect(o.metricsBindAddress).toBe('127.0.0.1:8080');
    expect(o.cacheSyncStrategy).toBe('block-reads');
    expect(o.skippedPropagatingNamespaces).toEqual(['kube-.*']);
    expect(o.concurrentResourceTemplateSyncs).toBe(5);
    expect([...o.enabledControllers].sort()).toEqual([
      'binding',
      'bindingStatus',
      'cluster',
      'dependencies-distributor',
      'detector',
      'execution',
      'scheduler',
      'workStatus',
    ]);
  });

  it('parses every kind of value', () => {
    const o = parse(
      '--kube-api-qps=12.5',
      '--leader-elect=false',
      '--cache-sync-timeout',
      '1m30s',
      '--controllers=*,-execution',
      '--cache-sync-strategy=gate-start',
    );
    expect(o.kubeApiQps).toBe(12.5);
    expect(o.leaderElect).toBe(false);
    expect(o.cacheSyncTimeoutMs).toBe(90_000);
    expect(o.enabledControllers.has('execution')).toBe(false);
    expect(o.enabledControllers.has('binding')).toBe(true);
    expect(o.cacheSyncStrategy).toBe('gate-start');
  });

  it('accepts a bare boolean flag as true', () => {
    expect(parse('--leader-elect').leaderElect).toBe(true);
  });

  it.each([
    [['--kube-api-burst=1.5'], /whole number/],
    [['--kube-api-qps=-1'], /at least 0/],
    [['--cache-sync-strategy=eager'], /block-reads, gate-start, fallback/],
    [['--cache-sync-timeout=10'], /not a duration/],
    [['--controllers=detector,nope'], /"nope".*known: detector/],
    [['--leader-elect-renew-deadline=20s'], /less than --leader-elect-lease-duration/],
    [['--metrics-bind-address=localhost'], /not a bind address/],
    [['--skipped-propagating-namespaces=kube-('], /not a valid regular expression/],
    [['--no-such-flag=1'], /no-such-flag/],
  ])('rejects %j with a clear error', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(FlagError);
    expect(() => parseOptions(argv)).toThrow(message);
  });

  it('answers --help with text naming every flag and its default', () => {
    expect(parseOptions(['--help'])).toBe('help');
    const help = helpText();
    expect(help).toContain('--cache-sync-strategy <string>');
    expect(help).toContain('(default "15s")');
    expect(help).toContain('(default "127.0.0.1:8080")');
  });
});

describe('helpers', () => {
  it('parses and formats Go durations', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('0')).toBe(0);
    expect(() => parseDuration('5 s')).toThrow(/not a duration/);
    expect(formatDuration(90_000)).toBe('1m30s');
  });

  it('applies the first matching --controllers entry', () => {
    const none = new Set<string>();
    expect(isControllerEnabled('a', ['-a', '*'], none)).toBe(false);
    expect(isControllerEnabled('a', ['a', '-a'], none)).toBe(true);
    expect(isControllerEnabled('b', ['*'], new Set(['b']))).toBe(false);
    expect(isControllerEnabled('b', ['*', 'b'], new Set(['b']))).toBe(true);
    expect(isControllerEnabled('c', ['a'], none)).toBe(false);
  });

  it('splits bind addresses', () => {
    expect(parseBindAddress(':10357')).toEqual({ host: '0.0.0.0', port: 10357 });
    expect(parseBindAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBindAddress('[::1]:80')).toEqual({ host: '::1', port: 80 });
  });
});
