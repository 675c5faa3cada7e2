// The registry of gates behind /readyz: every informer (and anything else the process must finish before it
// is ready) registers a gate here; the probe handler and dashboards read snapshots and change events.
import { AllOfGate } from './all-of-gate.js';
import { DuplicateGateError, UnknownGateError } from './errors.js';
import { Gate, type GateSnapshot, type ReadonlyGate } from './gate.js';
import { notify } from './notify.js';

/** A change in the registry: a gate added, a registered gate's state or progress changed, a gate removed. */
export type ReadinessEvent =
  | { readonly type: 'added'; readonly gate: GateSnapshot }
  | { readonly type: 'changed'; readonly gate: GateSnapshot }
  | { readonly type: 'removed'; readonly name: string };

export type ReadinessListener = (event: ReadinessEvent) => void;

interface Entry {
  readonly gate: ReadonlyGate;
  readonly unsubscribe: () => void;
}

/** A registry of named gates; the process is ready when every registered gate is open. */
/** The name of the aggregate gate over every informer: /readyz's summary, and what gate-start waits for. */
export const ALL_CACHES_GATE = 'all-caches';

export class Readiness {
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<ReadinessListener>();

  /** Creates a pending Gate, registers it and returns the owner's handle. Throws DuplicateGateError if the name is taken. */
  gate(name: string): Gate {
    const gate = new Gate(name);
    this.register(gate);
    return gate;
  }

  /**
   * Creates an AllOfGate over the given members (gates, or names of gates registered here), registers it and
   * returns it. Throws UnknownGateError for a name that is not registered, DuplicateGateError for a taken name.
   */
  allOf(name: string, members: Iterable<ReadonlyGate | string> = []): AllOfGate {
    if (this.#entries.has(name)) throw new DuplicateGateError(name, 'the readiness registry');
    const resolved: ReadonlyGate[] = [];
    for (const m of members) resolved.push(typeof m === 'string' ? this.require(m) : m);
    const gate = new AllOfGate(name, resolved);
    this.register(gate);
    return gate;
  }

  /** Registers an existing gate. Registering the same gate again does nothing; another gate with its name throws. */
  register(gate: ReadonlyGate): void {
    const existing = this.#entries.get(gate.name);
    if (existing !== undefined) {
      if (existing.gate === gate) return;
      throw new DuplicateGateError(gate.name, 'the readiness registry');
    }
    const unsubscribe = gate.onChange((snapshot) => this.#emit({ type: 'changed', gate: snapshot }));
    this.#entries.set(gate.name, { gate, unsubscribe });
    this.#emit({ type: 'added', gate: gate.snapshot() });
  }

  /** Removes a gate (by name, or the gate itself) from readiness. Returns whether it was registered. */
  unregister(gate: ReadonlyGate | string): boolean {
    const name = typeof gate === 'string' ? gate : gate.name;
    const entry = this.#entries.get(name);
    if (entry === undefined || (typeof gate !== 'string' && entry.gate !== gate)) return false;
    entry.unsubscribe();
    this.#entries.delete(name);
    this.#emit({ type: 'removed', name });
    return true;
  }

  /** The gate registered under `name`, or undefined. */
  get(name: string): ReadonlyGate | undefined {
    return this.#entries.get(name)?.gate;
  }

  /** The gate registered under `name`; throws UnknownGateError if there is none. */
  require(name: string): ReadonlyGate {
    const gate = this.#entries.get(name)?.gate;
    if (gate === undefined) throw new UnknownGateError(name);
    return gate;
  }

  /** Whether a gate is registered under `name`. */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Number of registered gates. */
  get size(): number {
    return this.#entries.size;
  }

  /** The registered gates in registration order. */
  gates(): ReadonlyGate[] {
    return Array.from(this.#entries.values(), (e) => e.gate);
  }

  /** Snapshots of every registered gate, in registration order. */
  snapshot(): GateSnapshot[] {
    return Array.from(this.#entries.values(), (e) => e.gate.snapshot());
  }

  /** True when every registered gate is open (and so when none is registered). */
  isReady(): boolean {
    for (const e of this.#entries.values()) if (!e.gate.isOpen) return false;
    return true;
  }

  /** Calls the listener for every added, changed and removed gate. Returns an unsubscribe function. */
  onChange(listener: ReadinessListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: ReadinessEvent): void {
    if (this.#listeners.size > 0) notify(this.#listeners, event);
  }
}
