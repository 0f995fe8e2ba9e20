import { useTheme } from '@mui/material';
import EmojiPicker, { Categories, EmojiStyle } from 'emoji-picker-react';
import { useTranslation } from 'react-i18next';

const CATEGORIES = [
  [Categories.SUGGESTED, 'suggested'],
  [Categories.SMILEYS_PEOPLE, 'smileys'],
  [Categories.ANIMALS_NATURE, 'animals'],
  [Categories.FOOD_DRINK, 'food'],
  [Categories.TRAVEL_PLACES, 'travel'],
  [Categories.ACTIVITIES, 'activities'],
  [Categories.OBJECTS, 'objects'],
  [Categories.SYMBOLS, 'symbols'],
  [Categories.FLAGS, 'flags'],
] as const;

/** Loaded on first use only (bundle budget): the picker and its emoji data are large. */
export default function EmojiPickerPanel({ onPick }: { onPick(emoji: string): void }) {
  const theme = useTheme();
  const { t } = useTranslation();
  return (
    <EmojiPicker
      // Native glyphs: no emoji images fetched from a CDN.
      emojiStyle={EmojiStyle.NATIVE}
      colorScheme={theme.palette.mode === 'dark' ? 'dark' : 'light'}
      lazyLoadEmojis
      previewConfig={{ showPreview: false }}
      searchPlaceholder={t('conversation.emoji.search')}
      labels={{ searchPlaceholder: t('conversation.emoji.search'), searchLabel: t('conversation.emoji.search'), searchResultsNone: t('conversation.emoji.none') }}
      categories={CATEGORIES.map(([category, key]) => ({ category, name: t(`conversation.emoji.${key}`) }))}
      width={320}
      height={380}
      onEmojiClick={(data) => onPick(data.emoji)}
    />
  );
}
