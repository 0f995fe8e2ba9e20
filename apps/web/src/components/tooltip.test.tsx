import { IconButton } from '@mui/material';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Profiler, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTooltipPopup, Tooltip } from './tooltip';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" data-testid="button" onClick={() => setCount(count + 1)}>
      {count}
    </button>
  );
}

describe('Tooltip', () => {
  it('names its child, shows on pointing and hides on leaving; the child keeps its node and state', async () => {
    render(
      <Tooltip title="Add">
        <span data-testid="host">
          <Counter />
        </span>
      </Tooltip>,
    );
    const host = screen.getByTestId('host');
    expect(host.getAttribute('aria-label')).toBe('Add');
    fireEvent.click(screen.getByTestId('button'));
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.mouseOver(host);
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', 'Add');
    expect(screen.getByTestId('host')).toBe(host);
    expect(screen.getByTestId('button').textContent).toBe('1');

    fireEvent.mouseLeave(host);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    fireEvent.mouseOver(host);
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', 'Add');
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it("mounts in one commit (MUI's renders again at once, to learn its child from a ref)", () => {
    const commits = vi.fn();
    render(
      <Profiler id="row" onRender={commits}>
        {[1, 2, 3].map((n) => (
          <Tooltip key={n} title={`Action ${n}`}>
            <IconButton>{n}</IconButton>
          </Tooltip>
        ))}
      </Profiler>,
    );
    expect(commits).toHaveBeenCalledOnce();
  });

  it("keeps the child's own name and handlers", () => {
    const onMouseOver = vi.fn();
    render(
      <Tooltip title="Close the ticket">
        <IconButton aria-label="Close" data-testid="button" onMouseOver={onMouseOver}>
          X
        </IconButton>
      </Tooltip>,
    );
    fireEvent.mouseOver(screen.getByTestId('button'));
    expect(onMouseOver).toHaveBeenCalledOnce();
    expect(screen.getByTestId('button').getAttribute('aria-label')).toBe('Close');
  });

  it('describes its child when asked: the title until shown, then aria-describedby', async () => {
    render(
      <Tooltip title="Due at 10:30" describeChild>
        <button type="button" data-testid="button">
          SLA
        </button>
      </Tooltip>,
    );
    const button = screen.getByTestId('button');
    expect(button.getAttribute('title')).toBe('Due at 10:30');
    expect(button.getAttribute('aria-label')).toBeNull();
    fireEvent.mouseOver(button);
    const tooltip = await screen.findByRole('tooltip');
    expect(button.getAttribute('aria-describedby')).toBe(tooltip.id);
    expect(button.getAttribute('title')).toBeNull();
  });

  it('opens on a long press, not on a tap, and not from the mouse events a tap brings', async () => {
    // The popup's module is loaded by the first tooltip about to show; here, before the clock is faked.
    await loadTooltipPopup();
    vi.useFakeTimers();
    render(
      <Tooltip title="Peek">
        <IconButton data-testid="button">P</IconButton>
      </Tooltip>,
    );
    const button = screen.getByTestId('button');
    fireEvent.touchStart(button);
    fireEvent.touchEnd(button);
    fireEvent.mouseOver(button);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByRole('tooltip')).toBeNull();

    act(() => {
      vi.advanceTimersByTime(1000);
    });
    fireEvent.touchStart(button);
    act(() => {
      vi.advanceTimersByTime(700);
    });
    expect(screen.getByRole('tooltip').textContent).toBe('Peek');
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('opens on a keyboard focus, not on a focus given by a click, and an empty title never opens', async () => {
    render(
      <>
        <Tooltip title="Language">
          <IconButton data-testid="button">L</IconButton>
        </Tooltip>
        <Tooltip title="">
          <IconButton data-testid="untitled">U</IconButton>
        </Tooltip>
      </>,
    );
    const button = screen.getByTestId('button');
    const matches = vi.spyOn(button, 'matches').mockReturnValue(false);
    fireEvent.focus(button);
    fireEvent.focus(screen.getByTestId('untitled'));
    fireEvent.mouseOver(screen.getByTestId('untitled'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.blur(button);

    matches.mockImplementation((selector) => selector === ':focus-visible');
    fireEvent.focus(button);
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', 'Language');
    fireEvent.blur(button);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });
});
