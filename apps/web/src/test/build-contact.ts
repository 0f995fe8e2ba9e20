import type { PresentedContact } from '@atende/shared';

/** A contact as the API presents it, for web tests: "Cliente {id}", number 55119000000{id}, no e-mail or extra fields. Overrides replace whole fields. */
export function buildContact(id: number, overrides: Partial<PresentedContact> = {}): PresentedContact {
  return {
    id,
    name: `Cliente ${id}`,
    number: `55119000000${id}`,
    email: '',
    profilePicUrl: '',
    isGroup: false,
    whatsappId: null,
    extraInfo: [],
    birthday: null,
    disableBot: false,
    active: true,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}
