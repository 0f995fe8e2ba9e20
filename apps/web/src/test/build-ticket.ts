import type { PresentedTicket } from '@atende/shared';

/**
 * A ticket as the API presents it, for web tests: pending, nobody's, in queue 5
 * "Vendas" of company 3, its contact "Cliente {id}", updated at 10:{id} so ids
 * sort by time. Overrides replace whole fields.
 */
export function buildTicket(id: number, overrides: Partial<PresentedTicket> = {}): PresentedTicket {
  return {
    id,
    uuid: `uuid-${id}`,
    status: 'pending',
    userId: null,
    user: null,
    queueId: 5,
    queue: { id: 5, name: 'Vendas', color: '#338ccc' },
    whatsappId: 1,
    whatsapp: null,
    contactId: id,
    contact: { id, name: `Cliente ${id}`, number: `55119000000${id}`, profilePicUrl: '', isGroup: false, email: '' },
    isGroup: false,
    chatbot: false,
    unreadMessages: 0,
    lastMessage: `Mensagem ${id}`,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    tags: [],
    ticketUsers: [],
    companyId: 3,
    code: String(id),
    slaDueAt: null,
    slaWarnAt: null,
    slaState: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: `2026-01-01T10:${String(id).padStart(2, '0')}:00.000Z`,
    ...overrides,
  };
}
