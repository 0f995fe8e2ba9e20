import type { MessageTextKind } from '@atende/shared';
import { TextField } from '@mui/material';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useForm, useWatch } from 'react-hook-form';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../i18n';
import { useUnknownVariables, useVariableInsertion, VariableChips } from './variable-chips';

beforeEach(async () => {
  setupI18n();
  await i18next.changeLanguage('en');
});

type Field = 'greeting' | 'farewell';

/** Two texts of a react-hook-form form sharing one row of chips, as the connection and queue dialogs have. */
function Editor({ kind = 'ticket', customKeys, onSubmit }: { kind?: MessageTextKind; customKeys?: string[]; onSubmit(values: Record<Field, string>): void }) {
  const form = useForm<Record<Field, string>>({ defaultValues: { greeting: 'Hello !', farewell: '' } });
  const variables = useVariableInsertion<Field>('greeting');
  const unknown = useUnknownVariables({ kind, customKeys })(useWatch({ control: form.control, name: 'greeting' }));
  return (
    <form onSubmit={form.handleSubmit(onSubmit)}>
      <TextField label="Greeting" multiline {...form.register('greeting')} {...variables.target('greeting')} helperText={unknown} />
      <TextField label="Farewell" multiline {...form.register('farewell')} {...variables.target('farewell')} />
      <VariableChips kind={kind} customKeys={customKeys} onInsert={variables.insert} />
      <button type="submit">save</button>
    </form>
  );
}

const chips = () => within(screen.getByTestId('variable-chips'));

describe('VariableChips', { timeout: 20_000 }, () => {
  it('offers every variable of a ticket text as a button named in the language in use', async () => {
    render(<Editor onSubmit={vi.fn()} />);
    expect(screen.getByRole('group', { name: 'Variables:' })).toBe(screen.getByTestId('variable-chips'));
    const names = chips()
      .getAllByRole('button')
      .map((chip) => chip.textContent);
    expect(names).toEqual(['First name', 'Name', 'Greeting', 'Protocol', 'Time', 'Date', 'Number', 'E-mail']);
    expect(chips().getByRole('button', { name: 'Insert the variable First name' }).dataset.token).toBe('{{firstName}}');

    await i18next.changeLanguage('pt');
    await waitFor(() => expect(chips().getAllByRole('button')[0]?.textContent).toBe('Primeiro nome'));
    expect(screen.getByRole('button', { name: 'Inserir a variável Protocolo' })).toBeTruthy();
  });

  it('inserts at the cursor of the field last focused, which the form then holds', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Editor onSubmit={onSubmit} />);
    const greeting = screen.getByRole('textbox', { name: 'Greeting' }) as HTMLTextAreaElement;
    const farewell = screen.getByRole('textbox', { name: 'Farewell' }) as HTMLTextAreaElement;

    await user.click(greeting);
    greeting.setSelectionRange(6, 6);
    await user.click(chips().getByRole('button', { name: 'Insert the variable First name' }));
    expect(greeting.value).toBe('Hello {{firstName}}!');
    await waitFor(() => expect(document.activeElement).toBe(greeting));
    expect(greeting.selectionStart).toBe('Hello {{firstName}}'.length);

    await user.click(farewell);
    await user.type(farewell, 'Bye ');
    await user.click(chips().getByRole('button', { name: 'Insert the variable Protocol' }));
    expect(farewell.value).toBe('Bye {{protocol}}');

    await user.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ greeting: 'Hello {{firstName}}!', farewell: 'Bye {{protocol}}' });
  });

  it('works from the keyboard: Enter or Space on a chip inserts; with no text visited yet it goes to the end of the first one', async () => {
    const user = userEvent.setup();
    render(<Editor onSubmit={vi.fn()} />);
    const greeting = screen.getByRole('textbox', { name: 'Greeting' }) as HTMLTextAreaElement;
    chips().getByRole('button', { name: 'Insert the variable Name' }).focus();
    await user.keyboard('{Enter}');
    expect(greeting.value).toBe('Hello !{{name}}');
    await waitFor(() => expect(document.activeElement).toBe(greeting));

    // Tabbing on passes through the second text: the next chip writes there.
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(chips().getAllByRole('button')[0]);
    await user.keyboard(' ');
    expect((screen.getByRole('textbox', { name: 'Farewell' }) as HTMLTextAreaElement).value).toBe('{{firstName}}');
    expect(greeting.value).toBe('Hello !{{name}}');
  });

  it("a campaign's chips have no protocol and add the campaign settings' keys; an unknown placeholder is named under its text", async () => {
    const user = userEvent.setup();
    render(<Editor kind="campaign" customKeys={['loja']} onSubmit={vi.fn()} />);
    const names = chips()
      .getAllByRole('button')
      .map((chip) => chip.textContent);
    expect(names).not.toContain('Protocol');
    expect(names.at(-1)).toBe('loja');
    const greeting = screen.getByRole('textbox', { name: 'Greeting' }) as HTMLTextAreaElement;
    await user.click(greeting);
    greeting.setSelectionRange(6, 6);
    await user.click(chips().getByRole('button', { name: 'Insert the variable loja' }));
    expect(greeting.value).toBe('Hello {{loja}}!');
    expect(screen.queryByText(/Unknown variable/)).toBeNull();

    await user.type(greeting, ' {{protocolo} {{cupom}');
    expect(await screen.findByText('Unknown variable: {protocolo}, {cupom}. Use one of the variables below or remove the braces.')).toBeTruthy();
  });
});
