import { LANGUAGES, type Language } from '@atende/shared';
import { Box, Menu, MenuItem, Popover, Slider } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/session';
import { STORAGE } from '../../api/storage-keys';
import { toastError } from '../../components/toast';
import { changeLanguage } from '../../i18n';

/*
 * The top bar's menus, loaded the first time one opens (top-bar.tsx, top-bar-frame.tsx): MUI's
 * Menu, Popover and Slider are not part of any first screen's paint.
 */

/** The language picker: the choice applies at once and is stored on the user. */
export function LanguageMenu({ anchor, onClose }: { anchor: HTMLElement | null; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const pickLanguage = (language: Language) => {
    onClose();
    changeLanguage(language);
    api.post(`/users/set-language/${language}`).catch(toastError);
  };
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {LANGUAGES.map((language) => (
        <MenuItem key={language} selected={i18n.language === language} onClick={() => pickLanguage(language)} data-testid={`language-${language}`}>
          {t(`languages.${language}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}

/** The notification sound's volume (spec part 1 §2), kept in this browser. */
export function VolumePopover({ anchor, open, onClose }: { anchor: HTMLElement | null; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [volume, setVolume] = useState(() => Number(localStorage.getItem(STORAGE.volume) ?? '1'));
  return (
    <Popover anchorEl={anchor} open={open} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Box sx={{ width: 180, px: 3, py: 2 }}>
        <Slider
          aria-label={t('topBar.volume')}
          value={volume}
          min={0}
          max={1}
          step={0.1}
          onChange={(_, value) => {
            const next = Array.isArray(value) ? (value[0] ?? 0) : value;
            setVolume(next);
            localStorage.setItem(STORAGE.volume, String(next));
          }}
        />
      </Box>
    </Popover>
  );
}

interface ProfileMenuProps {
  anchor: HTMLElement | null;
  open: boolean;
  onClose(): void;
  onProfile(): void;
  onTwoFactor(): void;
  onPush(): void;
  /** On a phone the bar has no room for the language button: the picker opens from here. */
  onLanguage(): void;
  onLogout(): void;
}

/** The profile button's menu: the user's own form, two-factor sign-in, push notifications, the language (phone) and logging out. */
export function ProfileMenu({ anchor, open, onClose, onProfile, onTwoFactor, onPush, onLanguage, onLogout }: ProfileMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu anchorEl={anchor} open={open} onClose={onClose}>
      <MenuItem onClick={onProfile}>{t('topBar.profile')}</MenuItem>
      <MenuItem data-testid="profile-two-factor" onClick={onTwoFactor}>
        {t('twoFactor.menu')}
      </MenuItem>
      <MenuItem onClick={onPush} data-testid="profile-push">
        {t('push.menu')}
      </MenuItem>
      <MenuItem sx={{ display: { xs: 'flex', sm: 'none' } }} onClick={onLanguage} data-testid="profile-language">
        {t('topBar.language')}
      </MenuItem>
      <MenuItem data-testid="logout" onClick={onLogout}>
        {t('topBar.logout')}
      </MenuItem>
    </Menu>
  );
}
