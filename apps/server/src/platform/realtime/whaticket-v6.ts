/**
 * Event names the whaticket v6 web client listens for where they differ from the spec's
 * (issue 32). The modules send the spec's event and, next to it, this name with the payload
 * keys that client reads, to the same rooms: a company can keep its v6 client while it moves.
 * Every name but the tags page's bare `user` carries the company id; all go only to the
 * company's own rooms, so none reaches another tenant.
 */
export const whaticketV6Events = {
  /** Sic: no hyphen after "company", and "quickemessage". Payload `{action, record, id}`. */
  quickMessage: (companyId: number) => `company${companyId}-quickemessage`,
  /** No hyphen after "company". Payload as the spec's `company-{id}-schedule`. */
  schedule: (companyId: number) => `company${companyId}-schedule`,
  /** The v6 tags page listens on the bare name `user`, payload `{action, tags, tagId}`. */
  tag: () => 'user',
  /** The open chat: `{action: 'new-message', newMessage, chat}` and `{action: 'update', chat}`. */
  chat: (companyId: number, chatId: number) => `company-${companyId}-chat-${chatId}`,
  /** One member's chat list: `{action: 'create' | 'update', record}`. */
  chatUser: (companyId: number, userId: number) => `company-${companyId}-chat-user-${userId}`,
  /** One contact list's page: `{action: 'reload', records}`. */
  contactListItems: (companyId: number, contactListId: number) => `company-${companyId}-ContactListItem-${contactListId}`,
};
