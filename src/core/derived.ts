// A structure derived from a snapshot (its search index, its project table), built once when first
// needed and owned by the snapshot, so a reload (a new snapshot) gets fresh ones and the old ones are
// collected with it. A build is a generator that pauses between steps, so it can run between requests.

export class Derived<T> {
  #value: T | undefined;
  #pending: Promise<T> | undefined;
  /** Dropped once the value is built: what the build read (a previous snapshot's index) is then free to go. */
  #steps: (() => Generator<void, T, void>) | undefined;

  constructor(steps: () => Generator<void, T, void>) {
    this.#steps = steps;
  }

  /** The value built in the steps of a caller's own walk; the first value built (here or by prepare) is kept. */
  *steps(): Generator<void, T, void> {
    if (this.#value !== undefined) return this.#value;
    return this.#keep(yield* this.#steps!());
  }

  #keep(value: T): T {
    this.#value ??= value;
    this.#steps = undefined;
    return this.#value;
  }

  /** Whether the value is built: a request reading it now pays nothing. */
  get built(): boolean {
    return this.#value !== undefined;
  }

  /** The value, built here and now (in one go) if no one built it yet. */
  get(): T {
    if (this.#value === undefined) this.#keep(settled(this.steps()));
    return this.#value!;
  }

  /** The value once built in steps that give the event loop back between them; one build for all callers. */
  prepare(): Promise<T> {
    if (this.#value !== undefined) return Promise.resolve(this.#value);
    this.#pending ??= inSteps(this.steps()).then((value) => this.#keep(value));
    return this.#pending;
  }
}

/** What steps give, run here and now without pausing. */
export function settled<T>(steps: Generator<void, T, void>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** A generator's value, run step by step with the event loop given back between steps. */
export async function inSteps<T>(steps: Generator<void, T, void>): Promise<T> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** A derivation quick enough to build in one step. */
export function derived<T>(build: () => T): Derived<T> {
  // biome-ignore lint/correctness/useYield: a one-step build has nothing to pause for.
  return new Derived(function* () {
    return build();
  });
}
