import { lazy, useState, type ComponentType, type JSX } from 'react';

type Module<P> = { default: ComponentType<P> };

/**
 * A lazily loaded component whose chunk may already be in when it mounts (the first screen's,
 * started by `preloadRoute` at boot): it then renders at once. A plain `lazy` suspends for a tick
 * even then, React shows the fallback, and keeps what replaces it hidden for at least 300 ms
 * (its reveal throttle): the first screen would come a spinner and a third of a second later.
 * `load` starts (once) the download the component uses.
 */
export function preloadable<P extends object>(load: () => Promise<Module<P>>): ((props: P) => JSX.Element) & { load(): Promise<Module<P>> } {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<Module<P>> | null = null;
  const loadOnce = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed download is asked for again by the next load (a failed preload: by the first
        // mount). A mounted component that met the failure keeps it, as React.lazy does: the
        // error boundary (error-boundary.tsx) says so and offers a reload.
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(loadOnce);
  function Preloadable(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component would remount it.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { load: loadOnce });
}
