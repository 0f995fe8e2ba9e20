import { can } from '@atende/shared';
import { Alert, Box, CircularProgress, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../api/session';
import { ApiKeysTab } from '../api-keys/api-keys-tab';
import { WebhooksTab } from '../webhooks/webhooks-tab';
import { CompaniesTab } from './companies-tab';
import { CompanyHoursTab } from './company-hours-tab';
import { OptionsTab } from './options-tab';
import { HelpsTab } from './helps-tab';
import { PlansTab } from './plans-tab';
import { settingsTabs, type SettingsTab } from './settings-tabs';
import { settingValue, useSettingEvents, useSettings } from './settings-queries';

/**
 * Settings page (spec part 2 §2.15): Options always; Schedules while
 * scheduleType is `company`; API (company API keys) and Webhooks for admins; Companies, Plans and Helps for super users. The open tab
 * is kept in the address (`?tab=`), so a reload stays on it. Changes by another
 * admin arrive live (`company-{id}-settings`).
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const settings = useSettings();
  const [params, setParams] = useSearchParams();
  useSettingEvents();

  const readOnly = !(user && can(user, 'drawer-admin-items:view'));
  const tabs = settingsTabs({ scheduleType: settingValue(settings.data, 'scheduleType'), isSuper: Boolean(user?.super), isAdmin: user?.profile === 'admin' });
  const wanted = params.get('tab');
  // A tab that is not (or no longer) offered, e.g. Schedules after scheduleType changed, falls back to Options.
  const tab: SettingsTab = tabs.find((name) => name === wanted) ?? 'options';
  const open = (next: SettingsTab) => setParams(next === 'options' ? {} : { tab: next }, { replace: true });

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('settings.title')}
      </Typography>
      {readOnly ? <Alert severity="info">{t('settings.adminOnly')}</Alert> : null}
      <Paper variant="outlined">
        <Tabs
          value={tab}
          onChange={(_, next: SettingsTab) => open(next)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ px: 1, borderBottom: 1, borderColor: 'divider' }}
        >
          {tabs.map((name) => (
            <Tab key={name} value={name} label={t(`settings.tabs.${name}`)} data-testid={`settings-tab-${name}`} />
          ))}
        </Tabs>
        <Box sx={{ p: { xs: 2, sm: 3 } }} data-testid={`settings-panel-${tab}`}>
          {settings.isPending ? (
            <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
              <CircularProgress size={28} aria-label={t('common.loading')} />
            </Box>
          ) : settings.isError ? (
            <Alert severity="error">{t('settings.loadError')}</Alert>
          ) : (
            <>
              {tab === 'options' ? <OptionsTab settings={settings.data} readOnly={readOnly} isSuper={Boolean(user?.super)} /> : null}
              {tab === 'schedules' ? <CompanyHoursTab readOnly={readOnly} /> : null}
              {tab === 'api' ? <ApiKeysTab /> : null}
              {tab === 'webhooks' ? <WebhooksTab /> : null}
              {tab === 'companies' ? <CompaniesTab /> : null}
              {tab === 'plans' ? <PlansTab /> : null}
              {tab === 'helps' ? <HelpsTab /> : null}
            </>
          )}
        </Box>
      </Paper>
    </Stack>
  );
}
