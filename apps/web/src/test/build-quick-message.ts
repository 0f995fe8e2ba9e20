import type { PresentedQuickMessage } from '@atende/shared';

/** A quick message as the API presents it, for web tests: active, private to user 1, text "Mensagem {id}" under `/q{id}`, no file. Overrides replace whole fields. */
export function buildQuickMessage(id: number, overrides: Partial<PresentedQuickMessage> = {}): PresentedQuickMessage {
  return {
    id,
    shortcode: `q${id}`,
    message: `Mensagem ${id}`,
    geral: false,
    status: true,
    editBeforeSend: false,
    userId: 1,
    isMedia: false,
    mediaPath: null,
    mediaName: null,
    mediaUrl: null,
    ...overrides,
  };
}
