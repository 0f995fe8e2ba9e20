import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TabStrip } from './tab-strip';

afterEach(cleanup);

const items = [
  { value: 'open', label: 'Open', testId: 'tab-open' },
  { value: 'closed', label: 'Closed', testId: 'tab-closed' },
  { value: 'search', label: 'Search', testId: 'tab-search' },
] as const;

function renderStrip(onChange = vi.fn(), onRender = vi.fn()) {
  render(
    <Profiler id="strip" onRender={onRender}>
      <TabStrip value="closed" onChange={onChange} items={[...items]} height={48} label="Lists" attributes={{ 'data-ticket-tabs': '' }} />
    </Profiler>,
  );
  return { onChange, onRender };
}

describe('TabStrip', () => {
  it('is a tab list with the selected tab alone in the Tab order, mounted in one commit', () => {
    const { onRender } = renderStrip();
    const list = screen.getByRole('tablist', { name: 'Lists' });
    expect(list.hasAttribute('data-ticket-tabs')).toBe(true);
    expect(screen.getAllByRole('tab').map((tab) => [tab.textContent, tab.getAttribute('aria-selected'), tab.tabIndex])).toEqual([
      ['Open', 'false', -1],
      ['Closed', 'true', 0],
      ['Search', 'false', -1],
    ]);
    // MUI's Tabs render again at once, to place their indicator from a measure.
    expect(onRender).toHaveBeenCalledOnce();
  });

  it('moves the focus with the arrows, Home and End, and selects with Enter or a click', async () => {
    const user = userEvent.setup();
    const { onChange } = renderStrip();
    const focused = () => document.activeElement?.getAttribute('data-testid');
    await user.tab();
    expect(focused()).toBe('tab-closed');
    await user.keyboard('{ArrowRight}');
    expect(focused()).toBe('tab-search');
    await user.keyboard('{ArrowRight}');
    expect(focused()).toBe('tab-open');
    await user.keyboard('{ArrowLeft}');
    expect(focused()).toBe('tab-search');
    await user.keyboard('{Home}');
    expect(focused()).toBe('tab-open');
    await user.keyboard('{End}');
    expect(focused()).toBe('tab-search');
    // Moving the focus selects nothing; one Tab leaves the strip.
    expect(onChange).not.toHaveBeenCalled();

    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('search');
    await user.click(screen.getByTestId('tab-open'));
    expect(onChange).toHaveBeenLastCalledWith('open');
    await user.click(screen.getByTestId('tab-closed'));
    expect(onChange).toHaveBeenCalledTimes(2);
  });
});
