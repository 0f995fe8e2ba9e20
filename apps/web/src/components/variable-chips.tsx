import { messageVariablesOf, messageVariableToken, unknownMessageVariables, type MessageTextKind, type MessageVariableOptions } from '@atende/shared';
import { Box, Chip, Typography } from '@mui/material';
import { Tooltip } from './tooltip';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

type TextElement = HTMLInputElement | HTMLTextAreaElement;

export interface VariableChipsProps {
  /** Which variables the text may use (a campaign has no protocol). */
  kind: MessageTextKind;
  /** A campaign's extra variables: the campaign settings' keys. */
  customKeys?: readonly string[];
  onInsert(token: string): void;
  testId?: string;
}

/**
 * The message variables a text sent to customers may use, as buttons that insert
 * one where the cursor was (docs/architecture.md, "Message variables"). The list
 * comes from packages/shared, the engine the server fills them with.
 */
export function VariableChips({ kind, customKeys = [], onInsert, testId = 'variable-chips' }: VariableChipsProps) {
  const { t } = useTranslation();
  const chip = (key: string, token: string, label: string, hint: string) => (
    <Tooltip key={key} describeChild title={`${token} · ${hint}`}>
      <Chip
        size="small"
        variant="outlined"
        clickable
        label={label}
        onClick={() => onInsert(token)}
        aria-label={t('messageVariables.insert', { name: label })}
        data-testid="variable-chip"
        data-token={token}
      />
    </Tooltip>
  );
  return (
    <Box role="group" aria-label={t('messageVariables.title')} data-testid={testId} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5 }}>
      <Typography variant="caption" color="text.secondary" sx={{ mr: 0.5 }}>
        {t('messageVariables.title')}
      </Typography>
      {messageVariablesOf(kind).map((variable) =>
        chip(variable, messageVariableToken(variable), t(`messageVariables.names.${variable}`), t(`messageVariables.hints.${variable}`)),
      )}
      {customKeys.map((key) => chip(`custom-${key}`, messageVariableToken(key), key, t('messageVariables.customHint')))}
    </Box>
  );
}

/** Writes a field's text as if typed, so its owner (react-hook-form, a state setter, MUI's label) sees the change. */
function typeInto(element: TextElement, value: string): void {
  const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element) as object, 'value')?.set;
  setValue?.call(element, value);
  element.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Inserts a variable at the cursor of the text field last focused (a dialog with
 * several texts has one row of chips), else at the end of `fallback`, and puts
 * the cursor after it. Each field the chips write into takes `target(name)`.
 */
export function useVariableInsertion<N extends string>(fallback: N) {
  const elements = useRef(new Map<N, TextElement>());
  // The field the user was last in; until there is one, the fallback's end.
  const last = useRef<N | null>(null);
  const insert = (token: string) => {
    const element = elements.current.get(last.current ?? fallback) ?? elements.current.get(fallback);
    if (!element) return;
    const start = last.current !== null && element.selectionStart !== null ? element.selectionStart : element.value.length;
    const end = last.current !== null && element.selectionEnd !== null ? element.selectionEnd : start;
    typeInto(element, element.value.slice(0, start) + token + element.value.slice(end));
    const caret = start + token.length;
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(caret, caret);
    });
  };
  /** Props for a text field the chips write into (MUI TextField: `inputRef` is the textarea itself). */
  const target = (name: N) => ({
    inputRef: (element: TextElement | null) => {
      if (element) elements.current.set(name, element);
      else elements.current.delete(name);
    },
    onFocus: () => {
      last.current = name;
    },
  });
  return { insert, target };
}

/** What to say under a text with placeholders that are no variable of its kind (the server would refuse it). */
export function useUnknownVariables(options: MessageVariableOptions = {}): (text: string | null | undefined) => string | undefined {
  const { t } = useTranslation();
  return (text) => {
    const unknown = text ? unknownMessageVariables(text, options) : [];
    return unknown.length > 0 ? t('messageVariables.unknown', { names: unknown.join(', ') }) : undefined;
  };
}
