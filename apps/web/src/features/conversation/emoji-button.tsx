import InsertEmoticonOutlined from '@mui/icons-material/InsertEmoticonOutlined';
import { Box, CircularProgress, IconButton, Popover } from '@mui/material';
import { Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const EmojiPickerPanel = lazy(() => import('./emoji-picker-panel'));

/** A picker chunk that fails to load (network, a deploy in between) must not take the conversation down. */
class PickerBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export function EmojiButton({ disabled, onPick }: { disabled?: boolean; onPick(emoji: string): void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const box = (content: ReactNode) => <Box sx={{ width: 320, height: 380, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2, textAlign: 'center' }}>{content}</Box>;
  return (
    <>
      <IconButton aria-label={t('conversation.composer.emoji')} disabled={disabled} onClick={(event) => setAnchor(event.currentTarget)} data-testid="composer-emoji">
        <InsertEmoticonOutlined />
      </IconButton>
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'top', horizontal: 'left' }} transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        <PickerBoundary fallback={box(t('conversation.loadFailed'))}>
          <Suspense fallback={box(<CircularProgress />)}>
            <EmojiPickerPanel onPick={onPick} />
          </Suspense>
        </PickerBoundary>
      </Popover>
    </>
  );
}
