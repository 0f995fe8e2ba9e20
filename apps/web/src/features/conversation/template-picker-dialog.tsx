import ArrowBack from '@mui/icons-material/ArrowBack';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { knownErrorText, toastError } from '../../components/toast';
import { isTemplateSendable, missingParameters, renderTemplate, templateSendBody, useMessageTemplates, useSendTemplate, type MessageTemplate } from './cloud-api';

export interface TemplatePickerDialogProps {
  ticketId: number;
  whatsappId: number | null;
  onClose(): void;
}

/**
 * Picks one of the connection's message templates, fills its body parameters
 * (`{{1}}`, `{{2}}`…) with a live preview, and sends it. Templates still in
 * review or rejected are listed but cannot be chosen.
 */
export function TemplatePickerDialog({ ticketId, whatsappId, onClose }: TemplatePickerDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const templates = useMessageTemplates(whatsappId, true);
  const send = useSendTemplate(ticketId);
  const [chosen, setChosen] = useState<MessageTemplate | null>(null);
  const [parameters, setParameters] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);

  const choose = (template: MessageTemplate | null) => {
    setChosen(template);
    setParameters(template ? Array.from({ length: template.parameters }, () => '') : []);
    setTried(false);
  };

  const missing = chosen ? missingParameters(chosen, parameters) : [];
  const submit = async () => {
    if (!chosen || sending) return;
    setTried(true);
    if (missing.length > 0) return;
    setSending(true);
    try {
      await send(templateSendBody(chosen, parameters));
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open onClose={sending ? undefined : onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} data-testid="template-dialog">
      <DialogTitle>{t('conversation.templates.title')}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 240 }}>
        {chosen ? (
          <Stack spacing={2} data-testid="template-form">
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
                {chosen.name}
              </Typography>
              <Chip size="small" label={chosen.language} />
              {chosen.category ? <Chip size="small" variant="outlined" label={chosen.category} /> : null}
            </Stack>
            <Paper variant="outlined" sx={{ p: 1.5, bgcolor: 'action.hover' }}>
              <Typography variant="caption" color="text.secondary">
                {t('conversation.templates.preview')}
              </Typography>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="template-preview">
                {renderTemplate(chosen.body, parameters) || chosen.name}
              </Typography>
            </Paper>
            {parameters.map((value, index) => (
              <TextField
                key={index}
                label={t('conversation.templates.parameter', { n: index + 1 })}
                value={value}
                onChange={(event) => setParameters((current) => current.map((entry, i) => (i === index ? event.target.value : entry)))}
                required
                error={tried && missing.includes(index)}
                helperText={tried && missing.includes(index) ? t('validation.required') : undefined}
                autoFocus={index === 0}
                slotProps={{ htmlInput: { maxLength: 1024, 'data-testid': 'template-parameter' } }}
              />
            ))}
          </Stack>
        ) : (
          <TemplateList templates={templates.data} loading={templates.isPending} failed={templates.isError ? (knownErrorText(templates.error) ?? t('conversation.templates.loadFailed')) : null} onRetry={() => void templates.refetch()} onChoose={choose} />
        )}
      </DialogContent>
      <DialogActions>
        {chosen ? (
          <Button startIcon={<ArrowBack />} onClick={() => choose(null)} disabled={sending} sx={{ mr: 'auto' }} data-testid="template-back">
            {t('conversation.templates.back')}
          </Button>
        ) : null}
        <Button onClick={onClose} disabled={sending}>
          {t('common.cancel')}
        </Button>
        {chosen ? (
          <Button variant="contained" onClick={() => void submit()} disabled={sending} data-testid="template-send">
            {sending ? <CircularProgress size={22} aria-label={t('common.loading')} /> : t('conversation.templates.send')}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}

function TemplateList({
  templates,
  loading,
  failed,
  onRetry,
  onChoose,
}: {
  templates: MessageTemplate[] | undefined;
  loading: boolean;
  /** Why the list could not load (a disconnected connection says so), or null. */
  failed: string | null;
  onRetry(): void;
  onChoose(template: MessageTemplate): void;
}) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <Box role="status" aria-label={t('common.loading')} sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress />
      </Box>
    );
  }
  if (failed) {
    return (
      <Stack spacing={1} sx={{ alignItems: 'center', p: 3 }} data-testid="template-load-failed">
        <Typography color="error">{failed}</Typography>
        <Button onClick={onRetry}>{t('conversation.retry')}</Button>
      </Stack>
    );
  }
  if (!templates || templates.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="template-empty">
        {t('conversation.templates.empty')}
      </Typography>
    );
  }
  return (
    <List disablePadding>
      {templates.map((template) => {
        const sendable = isTemplateSendable(template);
        return (
          <ListItem key={`${template.name}-${template.language}`} disablePadding>
            <ListItemButton
              disabled={!sendable}
              onClick={() => onChoose(template)}
              divider
              data-testid="template-option"
              data-template={template.name}
            >
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                    <span>{template.name}</span>
                    <Chip size="small" label={template.language} />
                    {sendable ? null : <Chip size="small" color="warning" variant="outlined" label={t('conversation.templates.notApproved', { status: template.status })} />}
                  </Stack>
                }
                secondary={template.body || undefined}
                slotProps={{ secondary: { sx: { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', whiteSpace: 'pre-wrap' } } }}
              />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
