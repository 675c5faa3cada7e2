// Expected strings and values were produced by apimachinery v0.37.2's resource package in Go.
import { describe, expect, it } from 'vitest';
import {
  formatBinarySI,
  formatDecimalSI,
  InvalidQuantityError,
  integerValue,
  milliValue,
} from './quantity.js';

describe('canonical formatting', () => {
  it.each([
    [1n, '1m'],
    [100n, '100m'],
    [250n, '250m'],
    [1000n, '1'],
    [1500n, '1500m'],
    [2000n, '2'],
    [10n, '10m'],
    [12345n, '12345m'],
    [100000n, '100'],
    [1000000n, '1k'],
    [3000000000n, '3M'],
    [0n, '0'],
  ])('NewMilliQuantity(%s, DecimalSI) = %s', (millis, text) => {
    expect(formatDecimalSI(millis, -3)).toBe(text);
  });

  it.each([
    [1n, '1'],
    [500n, '500'],
    [1000n, '1k'],
    [1023n, '1023'],
    [1024n, '1Ki'],
    [1500n, '1500'],
    [2048n, '2Ki'],
    [1610612736n, '1536Mi'],
    [1000000n, '1000000'],
    [67108864n, '64Mi'],
    [128974848n, '123Mi'],
    [1099511627776n, '1Ti'],
    [3377699720527872n, '3Pi'],
    [5000000000n, '5000000000'],
  ])('NewQuantity(%s, BinarySI) = %s', (bytes, text) => {
    expect(formatBinarySI(bytes)).toBe(text);
  });

  it.each([
    [1n, '1'],
    [5n, '5'],
    [10n, '10'],
    [110n, '110'],
    [1000n, '1k'],
    [2000n, '2k'],
    [1500000n, '1500k'],
  ])('NewQuantity(%s, DecimalSI) = %s', (n, text) => {
    expect(formatDecimalSI(n, 0)).toBe(text);
  });
});

describe('parsing', () => {
  it.each([
    ['250m', 250n, 1n],
    ['0.5', 500n, 1n],
    ['1', 1000n, 1n],
    ['1.5', 1500n, 2n],
    ['.1', 100n, 1n],
    ['1Ki', 1024000n, 1024n],
    ['1.5Gi', 1610612736000n, 1610612736n],
    ['1e3', 1000000n, 1000n],
    ['100n', 1n, 1n],
    ['1u', 1n, 1n],
    ['129M', 129000000000n, 129000000n],
    ['123Mi', 128974848000n, 128974848n],
    ['0.0001', 1n, 1n],
    ['1.0001m', 2n, 1n],
    ['-1.5m', -2n, -1n],
    ['+2k', 2000000n, 2000n],
  ])('%s: MilliValue %s, Value %s', (text, milli, value) => {
    expect(milliValue(text)).toBe(milli);
    expect(integerValue(text)).toBe(value);
  });

  it('reads bare JSON numbers', () => {
    expect(integerValue(1024)).toBe(1024n);
    expect(milliValue(0.25)).toBe(250n);
  });

  it.each(['', 'abc', '1.2.3', '1Qi', '--1', 'e3', '.'])('rejects %j', (text) => {
    expect(() => milliValue(text)).toThrow(InvalidQuantityError);
  });
});
