import { unknownMessageVariables, type MessageVariableOptions } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';

type Texts = Record<string, string | null | undefined>;

/**
 * Refuses texts that would reach a customer with a placeholder nobody fills
 * (docs/architecture.md, "Message variables"): 400 `ERR_UNKNOWN_MESSAGE_VARIABLE`
 * with, per field, its unknown placeholders as written (`fields.greetingMessage:
 * ['{{nme}}']`). A field left out of the body (undefined), or sent back as
 * `stored` holds it (an edit screen resends the whole record), is not checked.
 */
export function assertKnownVariables(texts: Texts, options: MessageVariableOptions = {}, stored: Texts = {}): void {
  const fields: Record<string, string[]> = {};
  for (const [field, text] of Object.entries(texts)) {
    if (!text || text === stored[field]) continue;
    const unknown = unknownMessageVariables(text, options);
    if (unknown.length > 0) fields[field] = unknown;
  }
  if (Object.keys(fields).length > 0) throw new AppError('ERR_UNKNOWN_MESSAGE_VARIABLE', undefined, { fields });
}
