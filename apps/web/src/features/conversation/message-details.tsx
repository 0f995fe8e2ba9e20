import { orderTotals, type MessageData, type MessageDataOrder } from '@atende/shared';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import EventOutlined from '@mui/icons-material/EventOutlined';
import MyLocationOutlined from '@mui/icons-material/MyLocationOutlined';
import PollOutlined from '@mui/icons-material/PollOutlined';
import ReplyOutlined from '@mui/icons-material/ShortcutOutlined';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import { Box, Chip, CircularProgress, Divider, LinearProgress, Link, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { calendarDay, formatDateTime, formatTime } from '../../i18n/dates';

/**
 * What a message carries beyond text and file (issue 19), as the bubble shows
 * it: the forwarded mark and the ad that brought the customer above the text,
 * the media's state, an order's, a poll's or an event's card, a live location's
 * last update, and the reactions below.
 */

const money = (amount: number, currency: string, language: string) => {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount);
  } catch {
    return `${currency} ${amount.toFixed(2)}`;
  }
};

/** Forwarded mark and click-to-WhatsApp ad, above the text. */
export function MessageOrigin({ data }: { data: MessageData }) {
  const { t } = useTranslation();
  const referral = data.referral;
  return (
    <>
      {data.forwarded ? (
        <Typography variant="caption" data-testid="message-forwarded" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'text.secondary', fontStyle: 'italic' }}>
          <ReplyOutlined fontSize="inherit" />
          {t(data.forwarded === 'frequently' ? 'conversation.message.frequentlyForwarded' : 'conversation.message.forwarded')}
        </Typography>
      ) : null}
      {referral ? (
        <Box data-testid="message-referral" sx={{ borderLeft: 4, borderColor: 'info.main', bgcolor: 'action.hover', borderRadius: 1, px: 1, py: 0.5, mb: 0.5 }}>
          <Typography variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600, color: 'info.main' }}>
            <CampaignOutlined fontSize="inherit" />
            {t('conversation.message.fromAd')}
          </Typography>
          {referral.headline ? (
            <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
              {referral.sourceUrl ? (
                <Link href={referral.sourceUrl} target="_blank" rel="noopener noreferrer">
                  {referral.headline}
                </Link>
              ) : (
                referral.headline
              )}
            </Typography>
          ) : null}
          {referral.body ? (
            <Typography variant="caption" sx={{ display: 'block', wordBreak: 'break-word' }}>
              {referral.body}
            </Typography>
          ) : null}
        </Box>
      ) : null}
    </>
  );
}

/** A media message whose file is still on its way, or will not come. */
export function MediaState({ media }: { media: NonNullable<MessageData['media']> }) {
  const { t, i18n } = useTranslation();
  if (media.status === 'pending') {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }} data-testid="message-media-pending">
        <CircularProgress size={14} />
        <Typography variant="body2">{t('conversation.message.mediaPending')}</Typography>
      </Stack>
    );
  }
  const code = media.reason ?? 'ERR_MEDIA_DOWNLOAD';
  const reason = i18n.exists(`errors.${code}`) ? t(`errors.${code}`) : code;
  return (
    <Typography variant="body2" data-testid="message-media-unavailable" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
      {t('conversation.message.mediaUnavailable', { reason })}
    </Typography>
  );
}

/** A catalog order: items, quantities, prices and total. */
export function OrderCard({ order }: { order: MessageDataOrder }) {
  const { t, i18n } = useTranslation();
  return (
    <Box data-testid="message-order" sx={{ minWidth: 200 }}>
      <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}>
        <ShoppingCartOutlined fontSize="small" />
        {t('conversation.message.order')}
      </Typography>
      {order.items.map((item, index) => (
        <Stack key={`${item.productId}-${index}`} direction="row" spacing={2} sx={{ justifyContent: 'space-between' }} data-testid="message-order-item">
          <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
            {t('conversation.message.orderItem', { quantity: item.quantity, product: item.productId })}
          </Typography>
          <Typography variant="body2">{money(item.price * item.quantity, item.currency, i18n.language)}</Typography>
        </Stack>
      ))}
      <Divider sx={{ my: 0.5 }} />
      {orderTotals(order).map((total) => (
        <Stack key={total.currency} direction="row" spacing={2} sx={{ justifyContent: 'space-between', fontWeight: 600 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t('conversation.message.orderTotal')}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="message-order-total">
            {money(total.amount, total.currency, i18n.language)}
          </Typography>
        </Stack>
      ))}
      {order.text ? (
        <Typography variant="caption" sx={{ display: 'block', mt: 0.5, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {order.text}
        </Typography>
      ) : null}
    </Box>
  );
}

/** A customer's poll (WhatsApp Web): each option with its votes now and a bar, the total and how many options one may pick. */
export function PollCard({ poll }: { poll: NonNullable<MessageData['poll']> }) {
  const { t } = useTranslation();
  const total = poll.options.reduce((sum, option) => sum + option.votes, 0);
  return (
    <Box data-testid="message-poll" sx={{ minWidth: 200 }}>
      <Typography variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}>
        <PollOutlined fontSize="inherit" />
        {t('conversation.message.poll')}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'pre-wrap', wordBreak: 'break-word', mb: 0.5 }} data-testid="message-poll-name">
        {poll.name}
      </Typography>
      {poll.options.map((option, index) => (
        <Box key={`${option.name}-${index}`} data-testid="message-poll-option" sx={{ mb: 0.75 }}>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
            <Typography variant="body2" sx={{ minWidth: 0, wordBreak: 'break-word' }}>
              {option.name}
            </Typography>
            <Typography variant="body2" sx={{ flexShrink: 0, fontWeight: 600 }} data-testid="message-poll-votes">
              {option.votes}
            </Typography>
          </Stack>
          <LinearProgress
            variant="determinate"
            value={(option.votes / Math.max(1, total)) * 100}
            aria-label={t('conversation.message.pollOption', { option: option.name, count: option.votes })}
            sx={{ height: 4, borderRadius: 2, mt: 0.25 }}
          />
        </Box>
      ))}
      <Typography variant="caption" sx={{ display: 'block' }} data-testid="message-poll-footer">
        {t('conversation.message.pollVotes', { count: total })} · {t(poll.selectableCount === 1 ? 'conversation.message.pollSingle' : 'conversation.message.pollMultiple')}
      </Typography>
    </Box>
  );
}

/** When an event runs, in the company's zone: the end's day only when it is not the start's. */
function eventWhen(startsAt?: string, endsAt?: string): string {
  const start = startsAt ? formatDateTime(startsAt) : '';
  if (!endsAt) return start;
  const end = startsAt && calendarDay(startsAt) === calendarDay(endsAt) ? formatTime(endsAt) : formatDateTime(endsAt);
  return start ? `${start} – ${end}` : `– ${end}`;
}

/** An event invitation (WhatsApp Web): name, when, where, what, how to join, and whether it was cancelled. */
export function EventCard({ event }: { event: NonNullable<MessageData['event']> }) {
  const { t } = useTranslation();
  const when = eventWhen(event.startsAt, event.endsAt);
  return (
    <Box data-testid="message-event" sx={{ minWidth: 200 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <EventOutlined fontSize="small" titleAccess={t('conversation.message.event')} sx={{ mt: 0.25 }} />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-word' }} data-testid="message-event-name">
            {event.name}
          </Typography>
          {event.cancelled ? <Chip size="small" color="error" variant="outlined" label={t('conversation.message.eventCancelled')} data-testid="message-event-cancelled" sx={{ my: 0.25 }} /> : null}
          {when ? (
            <Typography variant="caption" sx={{ display: 'block' }} data-testid="message-event-when">
              {when}
            </Typography>
          ) : null}
          {event.location ? (
            <Typography variant="caption" sx={{ display: 'block', wordBreak: 'break-word' }} data-testid="message-event-location">
              {event.location}
            </Typography>
          ) : null}
          {event.description ? (
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', mt: 0.5 }} data-testid="message-event-description">
              {event.description}
            </Typography>
          ) : null}
          {event.joinLink ? (
            <Link href={event.joinLink} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ display: 'inline-block', mt: 0.5 }}>
              {t('conversation.message.eventJoin')}
            </Link>
          ) : null}
        </Box>
      </Stack>
    </Box>
  );
}

/** Under a location: that it is live and when it last moved. */
export function LiveLocation({ live }: { live: NonNullable<MessageData['live']> }) {
  const { t } = useTranslation();
  return (
    <>
      {live.caption ? (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {live.caption}
        </Typography>
      ) : null}
      <Typography variant="caption" data-testid="message-live-location" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <MyLocationOutlined fontSize="inherit" />
        {t('conversation.message.liveLocation', { time: formatTime(live.updatedAt) })}
      </Typography>
    </>
  );
}

/** The emojis people reacted with, grouped, under the bubble. */
export function Reactions({ reactions }: { reactions: NonNullable<MessageData['reactions']> }) {
  const { t } = useTranslation();
  if (reactions.length === 0) return null;
  const counts = new Map<string, number>();
  for (const reaction of reactions) counts.set(reaction.emoji, (counts.get(reaction.emoji) ?? 0) + 1);
  const list = [...counts].map(([emoji, count]) => (count > 1 ? `${emoji} ${count}` : emoji)).join(' ');
  return (
    <Box
      data-testid="message-reactions"
      aria-label={t('conversation.message.reactions', { list })}
      title={t('conversation.message.reactions', { list })}
      sx={{ position: 'absolute', bottom: -12, left: 8, px: 0.75, borderRadius: 3, bgcolor: 'background.paper', boxShadow: 1, fontSize: 14, lineHeight: '22px' }}
    >
      {list}
    </Box>
  );
}

/** The body the bubble shows for a message with details; null keeps the message's own body. */
export function detailText(data: MessageData, t: (key: string, options?: Record<string, unknown>) => string): string | null {
  // The card replaces the text summary the body holds for clients without it.
  if (data.order || data.poll || data.event) return '';
  if (data.unsupported) return t('conversation.message.unsupported', { type: data.unsupported.type ?? '?' });
  return null;
}
