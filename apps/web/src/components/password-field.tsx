import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { Tooltip } from './tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A password box whose text can be shown or hidden (sign-up and password reset, spec part 2 §2.18–§2.19). */
export function PasswordField({ slotProps, ...props }: TextFieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const label = visible ? t('login.hidePassword') : t('login.showPassword');
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      slotProps={{
        ...slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={label}>
                <IconButton edge="end" aria-label={label} aria-pressed={visible} onClick={() => setVisible((v) => !v)}>
                  {visible ? <VisibilityOff /> : <Visibility />}
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
