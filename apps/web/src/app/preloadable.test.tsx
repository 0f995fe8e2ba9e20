import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** A module whose download the test finishes by hand. */
function deferredModule() {
  let finish: () => void = () => undefined;
  let downloads = 0;
  const load = () => {
    downloads++;
    return new Promise<{ default: typeof Greeting }>((resolve) => {
      finish = () => resolve({ default: Greeting });
    });
  };
  return { load, finish: () => finish(), downloads: () => downloads };
}

describe('preloadable', () => {
  it('renders at once, without its fallback, when its chunk came in before it mounted', async () => {
    const module = deferredModule();
    const Page = preloadable(module.load);
    const loading = Page.load();
    module.finish();
    await loading;
    const seen: string[] = [];
    function Fallback() {
      seen.push('fallback');
      return <p>loading</p>;
    }
    render(
      <Suspense fallback={<Fallback />}>
        <Page name="Ana" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Ana')).toBeTruthy();
    expect(seen).toEqual([]);
    expect(module.downloads()).toBe(1);
  });

  it('suspends like a lazy component while its chunk downloads, asked for once however often it is loaded', async () => {
    const module = deferredModule();
    const Page = preloadable(module.load);
    void Page.load();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page name="Bia" />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => {
      module.finish();
      await Page.load();
    });
    expect(await screen.findByText('Hello Bia')).toBeTruthy();
    expect(module.downloads()).toBe(1);
  });
});
