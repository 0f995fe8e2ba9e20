import { createHash } from 'node:crypto';
import {
  decryptPollVote,
  getKeyAuthor,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
  normalizeMessageContent,
  proto,
  toNumber,
  WAMessageStubType,
  type BaileysEventMap,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
  type WASocket,
} from 'baileys';
import { ingestMessage, type InboundDeps } from '../../inbound/ingest.js';
import type { InboundMessage } from '../../inbound/inbound-message.js';
import {
  applyAck,
  applyEdit,
  applyLiveLocation,
  applyPollVote,
  applyReaction,
  applyRevoke,
  applySendFailure,
  moveLiveLocation,
  pollKeyOf,
  type DeliveryReportsDeps,
} from '../../inbound/message-updates.js';
import type { Platform } from '../../platform/platform.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';
import { channelSettings } from '../channel-settings.js';
import { followNumberChange } from '../number-change.js';
import type { SessionRef } from '../../modules/connections/connection-state.js';
import { mapContent, textOf } from './baileys-message-mapper.js';

interface InboundLogger {
  warn(o: object, m?: string): void;
  error(o: object, m?: string): void;
}

/** The ingest pipeline, the updates of stored messages, the company's settings and its media storage. */
export type BaileysInboundDeps = InboundDeps & DeliveryReportsDeps & Pick<Platform, 'db' | 'media'>;

/** What the handlers need from the running session. */
export interface BaileysInboundContext {
  deps: BaileysInboundDeps;
  ref: SessionRef;
  socket: WASocket;
  downloadMedia(message: WAMessage): Promise<Buffer>;
  groupSubject(jid: string): Promise<string>;
  logger: InboundLogger;
}

const userOf = (jid: string | null | undefined) => jidDecode(jid ?? undefined)?.user ?? '';

/**
 * The phone number behind an address. WhatsApp increasingly addresses people by
 * LID (a per-account opaque id); the message key usually carries the phone
 * number as its "alt" address, else Baileys' LID mapping store knows it. Only
 * when neither does is the LID itself used, so one person stays one contact as
 * soon as the mapping is known.
 */
async function phoneNumberOf(socket: Pick<WASocket, 'signalRepository'>, jid: string, alt?: string | null): Promise<string> {
  if (isPnUser(jid)) return userOf(jid);
  if (alt && isPnUser(alt)) return userOf(alt);
  if (isLidUser(jid)) {
    const pn = await socket.signalRepository.lidMapping.getPNForLID(jid).catch(() => null);
    if (pn) return userOf(pn);
  }
  return userOf(jid);
}

interface Chat {
  number: string;
  isGroup: boolean;
}

async function chatOf(ctx: BaileysInboundContext, key: WAMessageKey): Promise<Chat | null> {
  const jid = key.remoteJid;
  if (!jid || isJidBroadcast(jid) || isJidNewsletter(jid)) return null;
  if (isJidGroup(jid)) return { number: userOf(jid), isGroup: true };
  const number = await phoneNumberOf(ctx.socket, jid, key.remoteJidAlt);
  return number ? { number, isGroup: false } : null;
}

async function saveMedia(ctx: BaileysInboundContext, message: WAMessage, media: { mimeType: string; fileName: string }): Promise<StoredMedia | null> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const data = await ctx.downloadMedia(message);
      return await ctx.deps.media.save(ctx.ref, { data, fileName: media.fileName, mimeType: media.mimeType });
    } catch (error) {
      if (attempt === 2) ctx.logger.warn({ err: error, whatsappId: ctx.ref.whatsappId, id: message.key.id }, 'media download failed');
    }
  }
  return null;
}

function timestampOf(message: WAMessage): Date | undefined {
  const seconds = message.messageTimestamp ? toNumber(message.messageTimestamp) : 0;
  return seconds > 0 ? new Date(seconds * 1000) : undefined;
}

/** Who reacted: the connected account ('me'), a group member, or the chat's customer. */
async function reactorOf(ctx: BaileysInboundContext, message: WAMessage, chat: Chat): Promise<string> {
  if (message.key.fromMe) return 'me';
  if (chat.isGroup && message.key.participant) return phoneNumberOf(ctx.socket, message.key.participant, message.key.participantAlt);
  return chat.number;
}

/**
 * A reaction changes the message it reacts to (an empty one takes it back); one
 * to a message we do not have is stored as its own line, so nothing is lost.
 */
async function ingestReaction(ctx: BaileysInboundContext, message: WAMessage, chat: Chat, reaction: proto.Message.IReactionMessage): Promise<boolean> {
  const targetId = reaction.key?.id;
  const emoji = reaction.text ?? '';
  if (!targetId) return false;
  const ref = { companyId: ctx.ref.companyId, whatsappId: ctx.ref.whatsappId, externalId: targetId };
  if (await applyReaction(ctx.deps, ref, await reactorOf(ctx, message, chat), emoji)) return true;
  if (!emoji || !message.key.id) return false;
  const result = await ingestMessage(ctx.deps, {
    channel: 'baileys',
    companyId: ctx.ref.companyId,
    whatsappId: ctx.ref.whatsappId,
    externalId: message.key.id,
    from: chat.number,
    body: emoji,
    fromMe: Boolean(message.key.fromMe),
    isGroup: chat.isGroup,
    timestamp: timestampOf(message),
    data: { reaction: { emoji, messageId: targetId } },
  });
  return !result.duplicate;
}

/** The customer changed number (WhatsApp's notice in the chat): a system line, and the contact follows when it can. */
async function ingestNumberChange(ctx: BaileysInboundContext, message: WAMessage, chat: Chat): Promise<boolean> {
  if (!message.key.id) return false;
  const numbers = (message.messageStubParameters ?? []).map((jid: string) => userOf(jid)).filter((user: string) => /^\d{8,15}$/.test(user) && user !== chat.number);
  const newNumber = numbers.at(-1);
  const text = newNumber ? `Changed number to ${newNumber}` : 'Changed number';
  const result = await ingestMessage(ctx.deps, {
    channel: 'baileys',
    companyId: ctx.ref.companyId,
    whatsappId: ctx.ref.whatsappId,
    externalId: message.key.id,
    from: chat.number,
    body: text,
    source: 'system',
    timestamp: timestampOf(message),
    data: { system: { kind: 'customer_changed_number', text, ...(newNumber ? { newNumber } : {}) } },
  });
  if (newNumber) await followNumberChange(ctx.deps, ctx.ref, chat.number, newNumber);
  return !result.duplicate;
}

/** One WhatsApp message into the ingest pipeline; answers whether it was stored. */
async function ingestBaileysMessage(ctx: BaileysInboundContext, message: WAMessage, ignoreGroups: boolean): Promise<boolean> {
  const { key } = message;
  if (!key.id) return false;
  const normalized = normalizeMessageContent(message.message);
  if (normalized?.pollUpdateMessage) return applyBaileysPollVote(ctx, message, normalized.pollUpdateMessage);
  const reaction = normalized?.reactionMessage;
  const numberChange = message.messageStubType === WAMessageStubType.INDIVIDUAL_CHANGE_NUMBER;
  const content = reaction || numberChange ? null : mapContent(message);
  if (!content && !reaction && !numberChange) return false;
  const chat = await chatOf(ctx, key);
  if (!chat) return false;
  if (chat.isGroup && ignoreGroups) return false;
  if (reaction) return ingestReaction(ctx, message, chat, reaction);
  if (numberChange || !content) return numberChange && !chat.isGroup ? ingestNumberChange(ctx, message, chat) : false;
  // A live location's later position moves the message of its start rather than adding a line.
  if (content.data?.live && !key.fromMe) {
    const senderName = chat.isGroup ? message.pushName || null : null;
    if (await applyLiveLocation(ctx.deps, { ...ctx.ref, number: chat.number, senderName }, content.body, content.data)) return false;
  }

  let media: StoredMedia | undefined;
  let body = content.body;
  let data = content.data;
  if (content.media) {
    const saved = await saveMedia(ctx, message, content.media);
    if (saved) media = saved;
    else {
      // The file could not be fetched: the message still shows, named, and says why.
      body = body || content.media.fileName;
      data = { ...data, media: { status: 'unavailable', reason: 'ERR_MEDIA_DOWNLOAD' } };
    }
  }

  const fromMe = Boolean(key.fromMe);
  const input: InboundMessage = {
    channel: 'baileys',
    companyId: ctx.ref.companyId,
    whatsappId: ctx.ref.whatsappId,
    externalId: key.id,
    from: chat.number,
    body,
    fromMe,
    media,
    specialType: content.specialType,
    quotedExternalId: content.quotedExternalId,
    isGroup: chat.isGroup,
    timestamp: timestampOf(message),
    ...(data ? { data } : {}),
  };
  if (chat.isGroup) {
    input.contactName = await ctx.groupSubject(key.remoteJid ?? '');
    if (!fromMe) {
      const participant = key.participant ?? '';
      input.senderName = message.pushName || (participant ? await phoneNumberOf(ctx.socket, participant, key.participantAlt) : '');
    }
  } else if (!fromMe && message.pushName) {
    // On our own messages pushName is the connected account's name, not the customer's.
    input.contactName = message.pushName;
  }
  const result = await ingestMessage(ctx.deps, input);
  return !result.duplicate;
}

/**
 * A vote on a poll: WhatsApp encrypts it with the poll's key (kept with the stored poll), and
 * names the options by the SHA-256 of their text. The voter's choice replaces their earlier one.
 */
async function applyBaileysPollVote(ctx: BaileysInboundContext, message: WAMessage, update: proto.Message.IPollUpdateMessage): Promise<boolean> {
  const creation = update.pollCreationMessageKey;
  if (!creation?.id || !update.vote?.encPayload || !update.vote.encIv) return false;
  const ref = { companyId: ctx.ref.companyId, whatsappId: ctx.ref.whatsappId, externalId: creation.id };
  const poll = await pollKeyOf(ctx.deps, ref);
  if (!poll) {
    ctx.logger.warn({ whatsappId: ctx.ref.whatsappId, pollId: creation.id }, 'vote on a poll not stored here ignored');
    return false;
  }
  const me = jidNormalizedUser(ctx.socket.user?.id);
  const voter = getKeyAuthor(message.key, me);
  try {
    const vote = decryptPollVote(update.vote, { pollEncKey: Buffer.from(poll.secret, 'base64'), pollCreatorJid: getKeyAuthor(creation, me), pollMsgId: creation.id, voterJid: voter });
    const picked = new Set((vote.selectedOptions ?? []).map((hash) => Buffer.from(hash).toString('hex')));
    const choice = poll.options.filter((name) => picked.has(createHash('sha256').update(name).digest('hex')));
    return await applyPollVote(ctx.deps, ref, voter, choice);
  } catch (error) {
    ctx.logger.warn({ err: error, whatsappId: ctx.ref.whatsappId, pollId: creation.id }, 'poll vote could not be decrypted');
    return false;
  }
}

export async function handleUpsert(ctx: BaileysInboundContext, upsert: BaileysEventMap['messages.upsert']): Promise<void> {
  const { ignoreGroups } = await channelSettings(ctx.deps.db, ctx.ref.companyId);
  for (const message of upsert.messages) {
    try {
      await ingestBaileysMessage(ctx, message, ignoreGroups);
    } catch (error) {
      ctx.logger.error({ err: error, whatsappId: ctx.ref.whatsappId, id: message.key.id }, 'incoming message failed');
    }
  }
}

/** WhatsApp's delivery status to our ack scale (spec part 1 §9): 1 sent, 2 delivered, 3 read, 4 played. */
function ackOf(status: proto.WebMessageInfo.Status | null | undefined): number {
  switch (status) {
    case proto.WebMessageInfo.Status.SERVER_ACK:
      return 1;
    case proto.WebMessageInfo.Status.DELIVERY_ACK:
      return 2;
    case proto.WebMessageInfo.Status.READ:
      return 3;
    case proto.WebMessageInfo.Status.PLAYED:
      return 4;
    default:
      return 0;
  }
}

/** Acks, edits and revokes of messages already stored. */
export async function handleUpdates(ctx: BaileysInboundContext, updates: BaileysEventMap['messages.update']): Promise<void> {
  for (const { key, update } of updates) {
    if (!key.id) continue;
    const ref = { companyId: ctx.ref.companyId, whatsappId: ctx.ref.whatsappId, externalId: key.id };
    try {
      const ack = ackOf(update.status);
      if (ack > 0) await applyAck(ctx.deps, ref, ack);
      // WhatsApp gave up on one of our messages.
      else if (update.status === proto.WebMessageInfo.Status.ERROR) await applySendFailure(ctx.deps, ref, 'ERR_SENDING_WAPP_MSG', { title: 'WhatsApp reported the message as failed' });
      const edited = update.message?.editedMessage?.message;
      if (edited) {
        const text = textOf(edited);
        if (text) await applyEdit(ctx.deps, ref, text);
      }
      if (update.messageStubType === WAMessageStubType.REVOKE) await applyRevoke(ctx.deps, ref);
      // A live location's later position, sent as an update of its message.
      const live = update.message ? mapContent({ key, message: update.message }) : null;
      if (live?.data?.live) await moveLiveLocation(ctx.deps, ref, live.body, live.data);
    } catch (error) {
      ctx.logger.error({ err: error, whatsappId: ctx.ref.whatsappId, id: key.id }, 'message update failed');
    }
  }
}

/**
 * Calls: a call that rang out, or one refused because the company's `call`
 * setting is disabled, is stored as a missed call (`call_log`). The call id is
 * the message id, so a call is logged once.
 */
export async function handleCalls(ctx: BaileysInboundContext, calls: WACallEvent[], handled: Set<string>): Promise<void> {
  const { rejectCalls } = await channelSettings(ctx.deps.db, ctx.ref.companyId);
  for (const call of calls) {
    if (call.isGroup || handled.has(call.id)) continue;
    const refuse = call.status === 'offer' && rejectCalls;
    if (!refuse && call.status !== 'timeout') continue;
    handled.add(call.id);
    try {
      const number = await phoneNumberOf(ctx.socket, call.from, call.callerPn);
      // The text asking for a message instead is the automation's answer to the refused call's call_log (ingest).
      if (refuse) await ctx.socket.rejectCall(call.id, call.from).catch((error: unknown) => ctx.logger.warn({ err: error }, 'call reject failed'));
      await ingestMessage(ctx.deps, {
        channel: 'baileys',
        companyId: ctx.ref.companyId,
        whatsappId: ctx.ref.whatsappId,
        externalId: `call-${call.id}`,
        from: number,
        body: '',
        specialType: 'call_log',
        timestamp: call.date,
      });
    } catch (error) {
      ctx.logger.error({ err: error, whatsappId: ctx.ref.whatsappId, callId: call.id }, 'call handling failed');
    }
  }
}
