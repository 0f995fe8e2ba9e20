/**
 * In-process domain events. Services emit them after their transaction commits;
 * feature `<feature>.events.ts` files subscribe and turn them into realtime
 * messages through the one publisher. Event names are product language.
 */
/**
 * Each feature adds its events to this map from its own `<feature>.events.ts`
 * (declaration merging), so the platform names no business event itself.
 * @public (exported for the features' `declare module` merging, which no import shows)
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEventMap {}

type DomainEventName = keyof DomainEventMap;
type Handler<K extends DomainEventName> = (payload: DomainEventMap[K]) => void | Promise<void>;

export interface DomainEvents {
  on<K extends DomainEventName>(name: K, handler: Handler<K>): void;
  /** Tells the subscribers and goes on: what they do happens after the caller's answer. */
  emit<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): void;
  /**
   * Tells the subscribers and waits for them (a reaction the caller's answer includes,
   * e.g. the greeting an accept sends). A failing subscriber is reported, never thrown:
   * the change that caused the event is already committed.
   */
  publish<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): Promise<void>;
}

export function createDomainEvents(onError: (error: unknown, name: string) => void): DomainEvents {
  const handlers = new Map<DomainEventName, Handler<never>[]>();
  return {
    on(name, handler) {
      const list = handlers.get(name) ?? [];
      list.push(handler as Handler<never>);
      handlers.set(name, list);
    },
    emit(name, payload) {
      for (const handler of handlers.get(name) ?? []) {
        // A failing subscriber must not undo or fail the committed work that emitted.
        Promise.resolve()
          .then(() => (handler as Handler<typeof name>)(payload))
          .catch((error: unknown) => onError(error, name));
      }
    },
    async publish(name, payload) {
      for (const handler of handlers.get(name) ?? []) {
        try {
          await (handler as Handler<typeof name>)(payload);
        } catch (error) {
          onError(error, name);
        }
      }
    },
  };
}
