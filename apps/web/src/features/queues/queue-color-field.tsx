import Palette from '@mui/icons-material/Palette';
import { Box, IconButton, InputAdornment, Popover, TextField } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isCssHexColor, QUEUE_COLORS } from './queue-colors';

/**
 * The queue colour (spec part 2 §2.3): typed freely (3–9 characters) or picked
 * from the preset palette, with a swatch of the current value.
 */
export function QueueColorField({
  value,
  onPick,
  error,
  helperText,
  inputProps,
}: {
  value: string;
  onPick(color: string): void;
  error: boolean;
  helperText: string | undefined;
  /** The registered field (react-hook-form's `register('color')`). */
  inputProps: UseFormRegisterReturn;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const swatch = isCssHexColor(value) ? value : 'transparent';

  return (
    <>
      <TextField
        {...inputProps}
        label={t('queues.modal.color')}
        error={error}
        helperText={helperText ?? t('queues.modal.colorHint')}
        required
        fullWidth
        slotProps={{
          htmlInput: { maxLength: 9, 'data-testid': 'queue-color' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Box sx={{ width: 22, height: 22, borderRadius: 1, bgcolor: swatch, border: 1, borderColor: 'divider' }} data-testid="queue-color-swatch" />
              </InputAdornment>
            ),
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={t('queues.modal.palette')}>
                  <IconButton aria-label={t('queues.modal.palette')} onClick={(event) => setAnchor(event.currentTarget)} edge="end" data-testid="queue-color-palette">
                    <Palette />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Popover open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        <Box sx={{ p: 1, display: 'grid', gridTemplateColumns: 'repeat(10, 28px)', gap: 0.5 }} role="listbox" aria-label={t('queues.modal.palette')}>
          {QUEUE_COLORS.map((color) => (
            <Box
              key={color}
              component="button"
              type="button"
              role="option"
              aria-selected={value.toLowerCase() === color}
              aria-label={t('queues.modal.pickColor', { color })}
              title={color}
              onClick={() => {
                onPick(color);
                setAnchor(null);
              }}
              data-testid={`queue-color-option-${color.slice(1)}`}
              sx={{
                width: 28,
                height: 28,
                p: 0,
                borderRadius: 1,
                cursor: 'pointer',
                bgcolor: color,
                border: 2,
                borderColor: value.toLowerCase() === color ? 'text.primary' : 'transparent',
                '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: 1 },
              }}
            />
          ))}
        </Box>
      </Popover>
    </>
  );
}
