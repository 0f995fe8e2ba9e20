import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatMessageText } from './chat-message-text';

afterEach(cleanup);

describe('chat message mentions', () => {
  it('marks @name of members, the reader’s own mention apart, and leaves other text alone', () => {
    const { container } = render(
      <p>
        <ChatMessageText text="Oi @ana maria e @Bruno Lima, falem com @Carla (não é membro) ou bruno@exemplo.com" memberNames={['Ana Maria', 'Bruno Lima', 'Ana']} myName="Ana Maria" />
      </p>,
    );
    expect(container.textContent).toBe('Oi @ana maria e @Bruno Lima, falem com @Carla (não é membro) ou bruno@exemplo.com');
    // The longest member name wins (Ana Maria, not Ana).
    expect(screen.getByTestId('mention-me').textContent).toBe('@ana maria');
    expect(screen.getAllByTestId('mention').map((mark) => mark.textContent)).toEqual(['@Bruno Lima']);
  });

  it('shows plain text when there is no mention, and names with regex characters safely', () => {
    const { container } = render(<ChatMessageText text="Valor: 10 (a+b)? @J.R. chega" memberNames={['J.R.']} myName="Outro" />);
    expect(container.textContent).toBe('Valor: 10 (a+b)? @J.R. chega');
    expect(screen.getAllByTestId('mention').map((mark) => mark.textContent)).toEqual(['@J.R.']);
    cleanup();
    const plain = render(<ChatMessageText text="sem menções" memberNames={['Ana']} myName="Ana" />);
    expect(plain.container.querySelector('mark')).toBeNull();
  });
});
