// Route schemas compiled when a request first needs them rather than as the server starts. Fastify compiles
// every route's request checks (ajv) and response serializers (fast-json-stringify) before it listens: a
// fifth of the CPU from a start to the first answer at 340,000 records (docs/PERFORMANCE.md, "The sync step
// and the start, stop 38"). Each is compiled at its first use instead; once the server listens, those no
// request has used yet are compiled one per turn of the event loop, so that requests meet compiled code and
// a schema that does not compile still stops the server at its start (an uncaught error, a moment later).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/** What is made once, at its first use or when `compileRest` reaches it. */
type Once<T> = () => T;

export class LazySchemas {
  readonly #pending = new Set<Once<unknown>>();

  /** Fastify's options that make its response serializers (its own, with the shared schemas) lazy. */
  readonly options: Pick<FastifyServerOptions, 'schemaController'> = {
    schemaController: {
      compilersFactory: {
        buildSerializer: (externalSchemas, serializerOptions) => {
          const compile = SerializerSelector()(externalSchemas as Record<string, unknown>, serializerOptions);
          return (route) => {
            const serializer = this.#once(() => compile(route));
            return (value: unknown) => serializer()(value);
          };
        },
      },
    },
  };

  /** Makes `compile`'s request checks lazy, and compiles the rest once the app listens. */
  install(app: FastifyInstance, compile: (schema: object) => ValidateFunction): void {
    app.setValidatorCompiler(({ schema }) => {
      const validator = this.#once(() => compile(schema));
      const validate = (data: unknown, context?: Parameters<ValidateFunction>[1]) => {
        const compiled = validator();
        const valid = compiled(data, context);
        check.errors = compiled.errors;
        return valid;
      };
      // Fastify gives the request as the value's parent only to a function that has ajv's `schemaEnv`: what
      // lets ajv replace a value it coerced at the root.
      const check = Object.assign(validate, { errors: null as ValidateFunction['errors'], schemaEnv: true });
      return check;
    });
    // Begun on the next turn, not in the hook: Fastify logs and ignores an error thrown by an onListen hook,
    // so a first schema that did not compile would leave the server running with a route that cannot answer.
    app.addHook('onListen', (done) => {
      setImmediate(() => this.compileRest());
      done();
    });
  }

  /** How many schemas no request has used and the background has not reached yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Compiles the schemas not compiled yet, one per turn of the event loop. */
  compileRest(): void {
    const [next] = this.#pending;
    if (next === undefined) return;
    next();
    setImmediate(() => this.compileRest());
  }

  #once<T>(make: () => T): Once<T> {
    let made: { value: T } | undefined;
    const get = (): T => {
      if (made === undefined) {
        made = { value: make() };
        this.#pending.delete(get);
      }
      return made.value;
    };
    this.#pending.add(get);
    return get;
  }
}
