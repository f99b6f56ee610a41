// The bytes of typed arrays allocated while a function runs: the constructors are swapped, for its
// duration, for subclasses that count what they allocate (a view on an existing buffer allocates nothing).
// Code reads the constructors from the global object when it calls them, so the count sees every `new
// Int32Array(n)`, `Uint32Array.from(...)` and `.slice()` of the code under test.
const NAMES = ['Int32Array', 'Uint32Array', 'Uint16Array', 'Uint8Array', 'Float64Array', 'Float32Array', 'BigUint64Array'] as const;

export async function typedArrayBytes(run: () => unknown): Promise<number> {
  const global = globalThis as unknown as Record<string, new (...args: unknown[]) => ArrayBufferView>;
  const originals = NAMES.map((name) => global[name]!);
  let bytes = 0;
  NAMES.forEach((name, i) => {
    const Original = originals[i]!;
    global[name] = class extends Original {
      constructor(...args: unknown[]) {
        super(...args);
        if (!(args[0] instanceof ArrayBuffer || args[0] instanceof SharedArrayBuffer)) bytes += this.byteLength;
      }
    };
  });
  try {
    await run();
  } finally {
    NAMES.forEach((name, i) => {
      global[name] = originals[i]!;
    });
  }
  return bytes;
}
