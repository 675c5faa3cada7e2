// An aggregate gate that opens when every member is open: the manager's "all caches synced" gate. It is
// derived state: only its members move it, so it hands out no open/fail/reset of its own.
import { DuplicateGateError, GateStateError, MemberFailedError } from './errors.js';
import {
  Gate,
  type GateListener,
  type GateSnapshot,
  type GateState,
  type ReadonlyGate,
  type WaitOptions,
} from './gate.js';

interface Member {
  readonly gate: ReadonlyGate;
  state: GateState;
  readonly unsubscribe: () => void;
}

/**
 * Opens when every member is open; fails (naming the first failed member) while any member is failed, and
 * returns to pending when that member is reset. Members may be added until it opens. An aggregate with no
 * members stays pending until seal() says the set is complete, so an aggregate created before its members are
 * registered does not open early.
 */
export class AllOfGate implements ReadonlyGate {
  readonly name: string;
  readonly #gate: Gate;
  readonly #members = new Map<string, Member>();
  #open = 0;
  #failed = 0;
  #sealed = false;
  #failedWith: { readonly member: string; readonly cause: unknown } | undefined = undefined;

  /** Creates a pending aggregate named `name` with the given initial members. */
  constructor(name: string, members: Iterable<ReadonlyGate> = []) {
    this.name = name;
    this.#gate = new Gate(name);
    for (const member of members) this.#insert(member);
    this.#evaluate();
  }

  /** The current state: derived from the members. */
  get state(): GateState {
    return this.#gate.state;
  }

  /** True once every member opened. */
  get isOpen(): boolean {
    return this.#gate.isOpen;
  }

  /** A MemberFailedError naming the failed member while failed, else undefined. */
  get cause(): unknown {
    return this.#gate.cause;
  }

  /** Number of callers currently waiting on the aggregate. */
  get waiters(): number {
    return this.#gate.waiters;
  }

  /** "<open>/<total> open" (and ", <n> failed"), kept current as members change. */
  get progress(): string | undefined {
    return this.#gate.progress;
  }

  /** Epoch milliseconds of the last progress of any member (a member opening counts). */
  get progressedAt(): number {
    return this.#gate.progressedAt;
  }

  /** The members in the order they were added. Empty once the aggregate has opened (it lets go of them). */
  get members(): readonly ReadonlyGate[] {
    return [...this.#members.values()].map((m) => m.gate);
  }

  /** True after seal(). */
  get sealed(): boolean {
    return this.#sealed;
  }

  /**
   * Adds a member. Adding the same gate twice does nothing; a different gate with a taken name throws
   * DuplicateGateError; adding to an open or sealed aggregate throws GateStateError.
   */
  add(member: ReadonlyGate): void {
    if (this.#gate.isOpen) {
      throw new GateStateError(
        `aggregate gate "${this.name}" is already open and cannot take member "${member.name}"; ` +
          'register every member before starting any of them',
      );
    }
    if (this.#sealed) {
      throw new GateStateError(
        `aggregate gate "${this.name}" is sealed and cannot take member "${member.name}"`,
      );
    }
    if (this.#insert(member)) this.#evaluate();
  }

  /** Removes a member (by gate or name); the aggregate may open as a result. Returns whether it was a member. */
  remove(member: ReadonlyGate | string): boolean {
    const name = typeof member === 'string' ? member : member.name;
    const entry = this.#members.get(name);
    if (entry === undefined || (typeof member !== 'string' && entry.gate !== member)) return false;
    entry.unsubscribe();
    this.#members.delete(name);
    this.#count(entry.state, -1);
    this.#evaluate();
    return true;
  }

  /** Declares the member set complete: no more add(); an empty sealed aggregate opens at once. */
  seal(): void {
    this.#sealed = true;
    this.#evaluate();
  }

  /** Resolves when every member is open; rejects on member failure, abort or deadline (see Gate.wait). */
  wait(options?: WaitOptions): Promise<void> {
    return this.#gate.wait(options);
  }

  /** Calls the listener after every change of the aggregate's state or progress. Returns an unsubscribe function. */
  onChange(listener: GateListener): () => void {
    return this.#gate.onChange(listener);
  }

  /** A point-in-time view; progress reads "<open>/<total> open". */
  snapshot(): GateSnapshot {
    return this.#gate.snapshot();
  }

  // Returns true when the member is new.
  #insert(member: ReadonlyGate): boolean {
    if ((member as unknown) === this) {
      throw new GateStateError(`aggregate gate "${this.name}" cannot be a member of itself`);
    }
    const existing = this.#members.get(member.name);
    if (existing !== undefined) {
      if (existing.gate === member) return false;
      throw new DuplicateGateError(member.name, `aggregate gate "${this.name}"`);
    }
    const entry: Member = {
      gate: member,
      state: member.state,
      unsubscribe: member.onChange((snap) => this.#onMemberChange(entry, snap)),
    };
    this.#members.set(member.name, entry);
    this.#count(entry.state, 1);
    return true;
  }

  #onMemberChange(entry: Member, snap: GateSnapshot): void {
    // A wait on the aggregate with a stall deadline waits as long as any member keeps moving.
    if (snap.progressedAt > this.#gate.progressedAt || (snap.state === 'open' && entry.state !== 'open')) {
      this.#gate.progressed();
    }
    // A failed member that fails again with a new cause keeps its state but changes the aggregate's cause.
    if (snap.state === entry.state && snap.state !== 'failed') return;
    this.#count(entry.state, -1);
    entry.state = snap.state;
    this.#count(entry.state, 1);
    this.#evaluate();
  }

  #count(state: GateState, delta: number): void {
    if (state === 'open') this.#open += delta;
    else if (state === 'failed') this.#failed += delta;
  }

  #evaluate(): void {
    if (this.#gate.isOpen) return;
    const total = this.#members.size;
    const failed = this.#failed > 0 ? `, ${this.#failed} failed` : '';
    this.#gate.setProgress(`${this.#open}/${total} open${failed}`);
    if (this.#failed > 0) {
      let first: Member | undefined;
      for (const m of this.#members.values()) {
        if (m.state === 'failed') {
          first = m;
          break;
        }
      }
      if (first === undefined) return;
      const cause = first.gate.cause;
      if (this.#failedWith?.member === first.gate.name && this.#failedWith.cause === cause) return;
      this.#failedWith = { member: first.gate.name, cause };
      this.#gate.fail(new MemberFailedError(this.name, first.gate.name, cause));
      return;
    }
    this.#failedWith = undefined;
    if (this.#open === total && (total > 0 || this.#sealed)) {
      // One-shot: members cannot close again, so the aggregate lets go of them for good.
      for (const m of this.#members.values()) m.unsubscribe();
      this.#members.clear();
      this.#gate.open();
      return;
    }
    if (this.#gate.state === 'failed') this.#gate.reset();
  }
}
