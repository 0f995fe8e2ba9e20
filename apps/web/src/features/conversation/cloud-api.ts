import { companyEvent, type PresentedMessage, type PresentedTicket, type TemplateSendBody } from '@atende/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useSession } from '../../api/session';
import { useSocket } from '../../realtime/socket';
import { storeMessages } from './conversation-queries';

/**
 * The WhatsApp Cloud API's rules in the composer: free-form messages only
 * within 24 hours of the customer's last message (the customer-service
 * window); outside it, only approved message templates. Other providers have
 * no such window and no templates.
 */

/** `GET /whatsapp/:id/templates`: a template as the server presents it. */
export interface MessageTemplate {
  name: string;
  language: string;
  /** Meta's review status: only APPROVED templates can be sent. */
  status: string;
  category: string | null;
  /** The body text, with `{{1}}`, `{{2}}`… where the parameters go. */
  body: string;
  /** How many body parameters the template takes. */
  parameters: number;
}

/** `GET /messages/:ticketId/window`. */
export interface CustomerWindowState {
  /** False when the ticket's connection is not a Cloud API one: there is no window. */
  required: boolean;
  open: boolean;
  expiresAt: string | null;
}

const customerWindowKey = (ticketId: number) => ['customer-window', ticketId] as const;
const templatesKey = (whatsappId: number) => ['message-templates', whatsappId] as const;

export function usesCloudApi(ticket: Pick<PresentedTicket, 'whatsapp'>): boolean {
  return ticket.whatsapp?.provider === 'cloud-api';
}

/**
 * Whether free-form messages may be sent. Unknown (not loaded yet) counts as
 * open: the server refuses a send outside the window anyway, and the input
 * should not flicker disabled on every ticket. `expiredAt` is the expiry the
 * page has seen pass since the state was loaded.
 */
export function isWindowOpen(state: CustomerWindowState | undefined, expiredAt: string | null = null): boolean {
  if (!state || !state.required) return true;
  return state.open && (state.expiresAt === null || state.expiresAt !== expiredAt);
}

export function isTemplateSendable(template: Pick<MessageTemplate, 'status'>): boolean {
  return template.status.toUpperCase() === 'APPROVED';
}

/** Approved templates first, then by name and language. */
export function sortTemplates(templates: readonly MessageTemplate[]): MessageTemplate[] {
  return [...templates].sort(
    (a, b) => Number(isTemplateSendable(b)) - Number(isTemplateSendable(a)) || a.name.localeCompare(b.name) || a.language.localeCompare(b.language),
  );
}

/** The body as the customer will read it; a parameter not filled in yet keeps its placeholder. */
export function renderTemplate(body: string, parameters: readonly string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => {
    const value = parameters[Number(n) - 1]?.trim();
    return value ? value : whole;
  });
}

/** One input per parameter; every one must be filled (Meta refuses a template with a parameter missing). */
export function missingParameters(template: Pick<MessageTemplate, 'parameters'>, parameters: readonly string[]): number[] {
  return Array.from({ length: template.parameters }, (_, index) => index).filter((index) => !parameters[index]?.trim());
}

/** The body of `POST /messages/:ticketId/template`. */
export function templateSendBody(template: Pick<MessageTemplate, 'name' | 'language' | 'parameters'>, parameters: readonly string[]): TemplateSendBody {
  return {
    name: template.name,
    language: template.language,
    parameters: Array.from({ length: template.parameters }, (_, index) => parameters[index]?.trim() ?? ''),
  };
}

interface AppMessageEvent {
  action: string;
  message?: Pick<PresentedMessage, 'ticketId' | 'fromMe'>;
}

/**
 * The ticket's customer-service window, kept current: reloaded when the
 * customer writes (which opens or extends it), and closed on screen the moment
 * it expires. For tickets on other providers nothing is requested.
 */
export function useCustomerWindow(ticket: Pick<PresentedTicket, 'id' | 'companyId' | 'whatsapp'>) {
  const { api } = useSession();
  const socket = useSocket();
  const queryClient = useQueryClient();
  const enabled = usesCloudApi(ticket);
  const query = useQuery({
    queryKey: customerWindowKey(ticket.id),
    queryFn: () => api.get<CustomerWindowState>(`/messages/${ticket.id}/window`),
    enabled,
  });
  const [expiredAt, setExpiredAt] = useState<string | null>(null);

  const expiresAt = query.data?.open ? query.data.expiresAt : null;
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setTimeout(() => setExpiredAt(expiresAt), Math.max(0, Date.parse(expiresAt) - Date.now()));
    return () => clearTimeout(timer);
  }, [expiresAt]);

  const { id: ticketId, companyId } = ticket;
  useEffect(() => {
    if (!socket || !enabled) return;
    const event = companyEvent(companyId, 'appMessage');
    const onMessage = (payload: AppMessageEvent) => {
      if (payload.action === 'create' && payload.message?.ticketId === ticketId && !payload.message.fromMe) {
        void queryClient.invalidateQueries({ queryKey: customerWindowKey(ticketId) });
      }
    };
    socket.on(event, onMessage);
    return () => {
      socket.off(event, onMessage);
    };
  }, [socket, enabled, companyId, ticketId, queryClient]);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: customerWindowKey(ticketId) }), [queryClient, ticketId]);
  return { enabled, open: !enabled || isWindowOpen(query.data, expiredAt), state: query.data, refresh };
}

/** The connection's templates, asked for when the picker opens (each load is a Graph API call). */
export function useMessageTemplates(whatsappId: number | null, enabled: boolean) {
  const { api } = useSession();
  return useQuery({
    queryKey: templatesKey(whatsappId ?? 0),
    queryFn: async () => sortTemplates((await api.get<{ templates: MessageTemplate[] }>(`/whatsapp/${whatsappId}/templates`)).templates),
    enabled: enabled && whatsappId !== null,
    staleTime: 5 * 60_000,
  });
}

/** Sends a template; the stored message goes into the conversation at once. */
export function useSendTemplate(ticketId: number) {
  const { api } = useSession();
  const queryClient = useQueryClient();
  return useCallback(
    async (body: TemplateSendBody) => {
      const sent = await api.post<PresentedMessage[]>(`/messages/${ticketId}/template`, body);
      storeMessages(queryClient, ticketId, sent);
      return sent;
    },
    [api, queryClient, ticketId],
  );
}
