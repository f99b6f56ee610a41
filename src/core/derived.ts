// A structure derived from a snapshot (its search index, its project table), built once when first
// needed and owned by the snapshot, so a reload (a new snapshot) gets fresh ones and the old ones are
// collected with it. A build is a generator that pauses between steps, so it can run between requests.

export class Derived<T> {
  #value: T | undefined;
  #pending: Promise<T> | undefined;
  /** Dropped once the value is built: what the build read (a previous snapshot's index) is then free to go. */
  #steps: (() => Generator<void, T, void>) | undefined;
  /**
   * The one build under way, whoever drives it: a request that needs the value now finishes the steps a
   * preparation between requests began, rather than starting a second build beside it.
   */
  #build: Generator<void, T, void> | undefined;

  constructor(steps: () => Generator<void, T, void>) {
    this.#steps = steps;
  }

  /** Runs one step of the build; true once the value is built. */
  #step(): boolean {
    if (this.#value !== undefined) return true;
    this.#build ??= this.#steps!();
    let step: IteratorResult<void, T>;
    try {
      step = this.#build.next();
    } catch (error) {
      this.#build = undefined; // a failed build is ended: the next caller starts it again and sees the failure
      throw error;
    }
    if (!step.done) return false;
    this.#value = step.value;
    this.#steps = undefined;
    this.#build = undefined;
    return true;
  }

  /** Whether the value is built: a request reading it now pays nothing. */
  get built(): boolean {
    return this.#value !== undefined;
  }

  /** The value, built here and now (the rest of the build in one go) if it is not built yet. */
  get(): T {
    while (!this.#step());
    return this.#value!;
  }

  /** The value once built in steps that give the event loop back between them; one build for all callers. */
  prepare(): Promise<T> {
    if (this.#value !== undefined) return Promise.resolve(this.#value);
    this.#pending ??= inSteps(this.steps());
    return this.#pending;
  }

  /**
   * The build as steps of whoever needs the value for a build of its own (a changed snapshot's index needs
   * its previous snapshot's): each step advances the one shared build, so it pauses where that one pauses.
   */
  *steps(): Generator<void, T, void> {
    while (!this.#step()) yield;
    return this.#value!;
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
