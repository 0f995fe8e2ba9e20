import { orderTotals, type MessageData, type MessageDataOrder } from '@atende/shared';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import ReplyOutlined from '@mui/icons-material/ShortcutOutlined';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import { Box, CircularProgress, Divider, Link, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/**
 * What a message carries beyond text and file (issue 19), as the bubble shows
 * it: the forwarded mark and the ad that brought the customer above the text,
 * the media's state, an order's card, and the reactions below.
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
  if (data.order) return '';
  if (data.unsupported) return t('conversation.message.unsupported', { type: data.unsupported.type ?? '?' });
  return null;
}
